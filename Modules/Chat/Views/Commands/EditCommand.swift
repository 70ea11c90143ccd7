import ArgumentParser
import CLIKit
import Chat
import Kernel

/// `messageai edit CHAT MESSAGE TEXT`
struct EditCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change the text of a message of yours.",
        discussion: """
            Every member sees the new text, marked edited, live and in history. Only the author can edit a message \
            (exit 76 otherwise), within 24 hours of sending it and at most 10 times (exit 67 past either); editing it to the text it \
            has changes nothing. MESSAGE is the id `history --json` prints.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name.") var chat: String
    @Argument(help: "The message's id.") var message: String
    @Argument(help: "The new text; - reads it from standard input (UTF-8, at most 16,000 bytes).") var text: String

    func run(in context: CLIContext) async throws {
        let messageID: MessageID = try Validation.identifier(message, field: "MESSAGE")
        let conversation = try await context.lookup.conversationID(for: chat)
        let body = text == "-" ? try context.console.readAll(maxBytes: Validation.maxMessageBytes + 2) : text
        let model = try context.factory(ChatFactory.self).makeChatViewModel(conversationID: conversation)
        guard let edited = await model.edit(messageID, to: body) else {
            throw model.changeError ?? AppError(.internal, "the edit was not acknowledged")
        }
        try context.emit(MessageText.JSONRow(message: edited), text: ["Edited \(edited.id) (version \(edited.version))."])
    }
}
