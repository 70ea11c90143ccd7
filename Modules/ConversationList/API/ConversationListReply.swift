import ConversationList
import Kernel

/// The conversation list.
public struct ConversationListReply: WireType, Equatable {
    /// Longest list the client accepts.
    public static let maxConversations = 100_000

    /// The rows, most recent activity first.
    public let conversations: [ConversationSummary]

    /// Creates the reply.
    public init(_ conversations: [ConversationSummary]) { self.conversations = conversations }

    public static let schema = WireSchema.object([("conversations", .array(ConversationSummary.schema, maxItems: maxConversations))],
                                                 required: ["conversations"])
}
