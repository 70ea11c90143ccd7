import ConversationList
import Kernel

/// A page of the conversation list.
public struct ConversationListReply: WireType, Equatable {
    /// The rows, most recent activity first.
    public let conversations: [ConversationSummary]
    /// Whether rows come after these.
    public let hasMore: Bool

    /// Creates the reply.
    public init(_ page: ConversationPage) {
        conversations = page.conversations
        hasMore = page.hasMore
    }

    /// The page it carries.
    public var page: ConversationPage { ConversationPage(conversations: conversations, hasMore: hasMore) }

    public static let schema = WireSchema.object([("conversations", .array(ConversationSummary.schema, maxItems: ConversationRules.maxPage)),
                                                  ("hasMore", .boolean)], required: ["conversations", "hasMore"])
}
