import Kernel

/// What the list needs from outside about messages: the newest one and unread counts, and a tick
/// when they change. Connected to Chat by the composition root.
public protocol ActivitySource: Sendable {
    /// Activity of each conversation as `reader` sees it; conversations with no messages may be left out.
    func activity(of conversationIDs: [ConversationID], for reader: UserID) async throws -> [ConversationID: ConversationActivity]
    /// Ticks when messages or read markers may have changed.
    func activityChanges() async throws -> AsyncStream<Void>
}

/// What Chat reports about one conversation, for one reader: its newest message and how many
/// messages that reader has not read, and of those how many mention them.
public struct ConversationActivity: Codable, Equatable, Sendable {
    /// The newest message, if there is one.
    public let lastMessage: MessagePreview?
    /// Messages from others after the reader's read marker.
    public let unreadCount: Int
    /// Those of them that mention the reader.
    public let unreadMentions: Int

    /// Creates an activity value.
    public init(lastMessage: MessagePreview?, unreadCount: Int, unreadMentions: Int = 0) {
        self.lastMessage = lastMessage
        self.unreadCount = unreadCount
        self.unreadMentions = unreadMentions
    }

    /// No messages at all.
    public static let none = ConversationActivity(lastMessage: nil, unreadCount: 0)
}
