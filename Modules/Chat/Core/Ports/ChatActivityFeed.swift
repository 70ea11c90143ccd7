import Kernel

/// Activity of conversations, for other features (the conversation list) through the
/// composition root.
public protocol ChatActivityFeed: Sendable {
    /// Activity of each conversation for `reader`; conversations with no messages may be left out.
    func activity(of conversationIDs: [ConversationID], for reader: UserID) async throws -> [ConversationID: ChatActivity]
    /// Ticks when messages or read markers may have changed.
    func activityChanges() async throws -> AsyncStream<Void>
}

/// A conversation's newest message and a reader's unread count.
public struct ChatActivity: Equatable, Sendable {
    /// The newest message.
    public let lastMessage: Message?
    /// Messages from others after the reader's read marker.
    public let unreadCount: Int
    /// Those of them that mention the reader (deleted ones left out).
    public let unreadMentions: Int

    /// Creates an activity value.
    public init(lastMessage: Message?, unreadCount: Int, unreadMentions: Int = 0) {
        self.lastMessage = lastMessage
        self.unreadCount = unreadCount
        self.unreadMentions = unreadMentions
    }
}
