/// What Chat reports about one conversation, for one reader: its newest message and how many
/// messages that reader has not read.
public struct ConversationActivity: Codable, Equatable, Sendable {
    /// The newest message, if there is one.
    public let lastMessage: MessagePreview?
    /// Messages from others after the reader's read marker.
    public let unreadCount: Int

    /// Creates an activity value.
    public init(lastMessage: MessagePreview?, unreadCount: Int) {
        self.lastMessage = lastMessage
        self.unreadCount = unreadCount
    }

    /// No messages at all.
    public static let none = ConversationActivity(lastMessage: nil, unreadCount: 0)
}
