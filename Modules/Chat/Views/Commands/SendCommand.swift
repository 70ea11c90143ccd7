import ArgumentParser
import CLIKit
import Chat
import Kernel

/// `messageai send CHAT [TEXT] [--file PATH]... [--id ID]`
struct SendCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "send", abstract: "Send a message, or files with a caption.",
        discussion:
            "With --id a script chooses the message's id: sending again with the same id (after a timeout, a crash) stores it once, files included, and prints the stored message. With --file (up to 10) the text is the files' caption and may be left out."
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name.") var chat: String
    @Argument(help: "The text; - reads it from standard input (UTF-8, at most 16,000 bytes).") var text: String?
    @Option(name: .customLong("file"), help: "A file to send with it (repeat for several); its name is made safe.") var files: [String] = []
    @Option(help: "The message's id (1–64 letters, digits, '-', '_', '.'); default: a new random one.") var id: String?
    @Option(help: "The id of the message of this conversation it answers (history --json shows ids).") var replyTo: String?

    func run(in context: CLIContext) async throws {
        guard text != nil || !files.isEmpty else { throw AppError(.usage, "send needs a text, a --file or both") }
        let messageID: MessageID = try id.map { try Validation.identifier($0, field: "--id") } ?? .random()
        let answered: MessageID? = try replyTo.map { try Validation.identifier($0, field: "--reply-to") }
        let conversation = try await context.lookup.conversationID(for: chat)
        let body = text == "-" ? try context.console.readAll(maxBytes: Validation.maxMessageBytes + 2) : text ?? ""
        var attachments: [FileID] = []
        for (position, path) in files.enumerated() {
            attachments.append(try await context.lookup.shareFile(at: path, for: messageID, position: position, in: conversation))
        }
        let model = try context.factory(ChatFactory.self).makeChatViewModel(conversationID: conversation)
        await model.send(body, id: messageID, replyTo: answered, attachments: attachments)
        if let error = model.inputError { throw error }
        if let error = model.lastSendError { throw error }
        guard let message = model.timeline.value?.entries.first(where: { $0.id == messageID })?.message else {
            throw AppError(.internal, "the message was not acknowledged")
        }
        try context.emit(MessageText.JSONRow(message: message), text: ["Sent \(message.id)."])
    }
}
