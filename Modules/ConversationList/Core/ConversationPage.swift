/// A page of the conversation list.
public struct ConversationPage: Codable, Equatable, Sendable {
    /// The rows, most recent activity first.
    public let conversations: [ConversationSummary]
    /// Whether rows come after these.
    public let hasMore: Bool

    /// Creates a page.
    public init(conversations: [ConversationSummary], hasMore: Bool) {
        self.conversations = conversations
        self.hasMore = hasMore
    }
}
