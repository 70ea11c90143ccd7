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

    /// A cursor this store did not give out (another database, or one replaced since): the
    /// reader starts over instead of guessing where it was.
    public static func foreignCursor(_ cursor: EventCursor) -> AppError {
        AppError(.gone, "cursor \(cursor) is from another store; start again without it and reload")
    }

    /// Most messages a catch-up read returns at once.
    public static let catchUpLimit = 500

    /// The caller is not a member of the conversation.
    public static func notMember(_ conversationID: ConversationID) -> AppError {
        AppError(.forbidden, "you are not a member of conversation \(conversationID)")
    }

    /// A paging cursor names no message of the conversation.
    public static func noMessage(_ id: MessageID, in conversationID: ConversationID) -> AppError {
        AppError(.notFound, "no message \(AppError.quoting(id.rawValue)) in conversation \(AppError.quoting(conversationID.rawValue))")
    }
}
