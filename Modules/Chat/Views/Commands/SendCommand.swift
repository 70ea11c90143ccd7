import ArgumentParser
import CLIKit
import Chat
import Kernel

/// `messageai send CHAT TEXT [--id ID]`
struct SendCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "send", abstract: "Send a message.",
        discussion:
            "With --id a script chooses the message's id: sending again with the same id (after a timeout, a crash) stores it once and prints the stored message."
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name.") var chat: String
    @Argument(help: "The text; - reads it from standard input (UTF-8, at most 16,000 bytes).") var text: String
    @Option(help: "The message's id (1–64 letters, digits, '-', '_', '.'); default: a new random one.") var id: String?
    @Option(help: "The id of the message of this conversation it answers (history --json shows ids).") var replyTo: String?

    func run(in context: CLIContext) async throws {
        let messageID: MessageID = try id.map { try Validation.identifier($0, field: "--id") } ?? .random()
        let answered: MessageID? = try replyTo.map { try Validation.identifier($0, field: "--reply-to") }
        let conversation = try await context.lookup.conversationID(for: chat)
        let body = text == "-" ? try context.console.readAll(maxBytes: Validation.maxMessageBytes + 2) : text
        let model = try context.factory(ChatFactory.self).makeChatViewModel(conversationID: conversation)
        await model.send(body, id: messageID, replyTo: answered)
        if let error = model.inputError { throw error }
        if let error = model.lastSendError { throw error }
        guard let message = model.timeline.value?.entries.first(where: { $0.id == messageID })?.message else {
            throw AppError(.internal, "the message was not acknowledged")
        }
        try context.emit(MessageText.JSONRow(message: message), text: ["Sent \(message.id)."])
    }
}
