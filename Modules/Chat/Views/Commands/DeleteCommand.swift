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
            can delete a message (exit 76 otherwise); deleting it again changes nothing. MESSAGE is the id `history --json` prints. \
            In a conversation you left, your messages can still be deleted: name it by its id.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name (only the id for one you left).") var chat: String
    @Argument(help: "The message's id.") var message: String

    func run(in context: CLIContext) async throws {
        let messageID: MessageID = try Validation.identifier(message, field: "MESSAGE")
        let conversation: ConversationID
        do {
            conversation = try await context.lookup.conversationID(for: chat)
        } catch let error as AppError where error.kind == .notFound {
            // A conversation the user left is no longer in her list: its id still names it.
            guard let id: ConversationID = try? Validation.identifier(chat, field: "CHAT") else { throw error }
            conversation = id
        }
        let model = try context.factory(ChatFactory.self).makeChatViewModel(conversationID: conversation)
        guard let deleted = await model.delete(messageID) else { throw model.changeError ?? AppError(.internal, "the deletion was not acknowledged") }
        try context.emit(MessageText.JSONRow(message: deleted), text: ["Deleted \(deleted.id)."])
    }
}
