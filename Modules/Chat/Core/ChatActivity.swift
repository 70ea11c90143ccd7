/// A conversation's newest message and a reader's unread count.
public struct ChatActivity: Equatable, Sendable {
    /// The newest message.
    public let lastMessage: Message?
    /// Messages from others after the reader's read marker.
    public let unreadCount: Int

    /// Creates an activity value.
    public init(lastMessage: Message?, unreadCount: Int) {
        self.lastMessage = lastMessage
        self.unreadCount = unreadCount
    }
}
