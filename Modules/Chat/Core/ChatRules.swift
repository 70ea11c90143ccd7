import Kernel

/// Chat's rules and errors, written once for every implementation of `ChatService`.
public enum ChatRules {
    /// What a resend of `id` gets: the stored message when it is the same one (same
    /// conversation, sender and text), else a conflict.
    public static func resent(_ existing: Message, conversationID: ConversationID, sender: UserID, text: String) throws -> Message {
        guard existing.conversationID == conversationID, existing.senderID == sender, existing.text == text else {
            throw AppError(.conflict, "message id \(existing.id) is already used by another message")
        }
        return existing
    }

    /// The caller is not a member of the conversation.
    public static func notMember(_ conversationID: ConversationID) -> AppError {
        AppError(.forbidden, "you are not a member of conversation \(conversationID)")
    }

    /// A paging cursor names no message of the conversation.
    public static func noMessage(_ id: MessageID, in conversationID: ConversationID) -> AppError {
        AppError(.notFound, "no message \(AppError.quoting(id.rawValue)) in conversation \(AppError.quoting(conversationID.rawValue))")
    }
}
