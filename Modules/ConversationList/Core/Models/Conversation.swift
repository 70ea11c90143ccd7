import Foundation
import Kernel

/// A conversation as stored: who is in it and what it is called.
public struct Conversation: Codable, Equatable, Sendable {
    /// The conversation.
    public let id: ConversationID
    /// Group title; `nil` for a one-to-one conversation.
    public let title: String?
    /// Members now (invitees, and those who left, are not).
    public let memberIDs: [UserID]
    /// When it was created.
    public let createdAt: Date
    /// For a one-to-one, the two people it is between, whether or not both are members now.
    public let pair: [UserID]?

    /// True for a group, false for a one-to-one conversation.
    public var isGroup: Bool { title != nil }

    /// The members of a new conversation: its creator first, then the others, each once.
    public static func members(creator: UserID, adding others: [UserID]) -> [UserID] {
        var seen: Set = [creator]
        return [creator] + others.filter { seen.insert($0).inserted }
    }

    /// Creates a conversation value; a one-to-one's `pair` defaults to its members.
    public init(id: ConversationID, title: String?, memberIDs: [UserID], createdAt: Date, pair: [UserID]? = nil) {
        self.id = id
        self.title = title
        self.memberIDs = memberIDs
        self.createdAt = createdAt
        self.pair = title == nil ? pair ?? memberIDs : nil
    }

    /// The other person of a one-to-one, for `reader`.
    public func counterpart(of reader: UserID) -> UserID? { pair?.first { $0 != reader } }
}

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
