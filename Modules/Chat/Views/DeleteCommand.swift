import ArgumentParser
import CLIKit
import Chat
import Kernel

/// `messageai delete CHAT MESSAGE`
struct DeleteCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a message of yours for everyone.",
        discussion: """
            Its text is gone from the store; every member sees that it was deleted, live and in history. Only the author \
            can delete a message (exit 76 otherwise); deleting it again changes nothing. MESSAGE is the id `history --json` prints.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name.") var chat: String
    @Argument(help: "The message's id.") var message: String

    func run(in context: CLIContext) async throws {
        let messageID: MessageID = try Validation.identifier(message, field: "MESSAGE")
        let conversation = try await context.lookup.conversationID(for: chat)
        let model = try context.factory(ChatFactory.self).makeChatViewModel(conversationID: conversation)
        guard let deleted = await model.delete(messageID) else { throw model.changeError ?? AppError(.internal, "the deletion was not acknowledged") }
        try context.emit(MessageText.JSONRow(message: deleted), text: ["Deleted \(deleted.id)."])
    }
}
