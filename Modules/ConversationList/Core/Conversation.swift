import Foundation
import Kernel

/// A conversation as stored: who is in it and what it is called.
public struct Conversation: Codable, Equatable, Sendable {
    /// The conversation.
    public let id: ConversationID
    /// Group title; `nil` for a one-to-one conversation.
    public let title: String?
    /// Members, including the creator.
    public let memberIDs: [UserID]
    /// When it was created.
    public let createdAt: Date

    /// True for a group, false for a one-to-one conversation.
    public var isGroup: Bool { title != nil }

    /// The members of a new conversation: its creator first, then the others, each once.
    public static func members(creator: UserID, adding others: [UserID]) -> [UserID] {
        others.reduce(into: [creator]) { members, id in if !members.contains(id) { members.append(id) } }
    }

    /// Creates a conversation value.
    public init(id: ConversationID, title: String?, memberIDs: [UserID], createdAt: Date) {
        self.id = id
        self.title = title
        self.memberIDs = memberIDs
        self.createdAt = createdAt
    }
}
