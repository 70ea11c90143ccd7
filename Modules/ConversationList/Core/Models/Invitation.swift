import Foundation
import Kernel

/// An invitation to a conversation, as its invitee sees it.
public struct Invitation: Codable, Equatable, Sendable, Identifiable {
    /// The conversation.
    public let id: ConversationID
    /// The group's title, or for a one-to-one the inviter's name.
    public let title: String
    /// True for a group.
    public let isGroup: Bool
    /// Who invited.
    public let inviterID: UserID
    /// The inviter's display name.
    public let inviterName: String
    /// How many members the conversation has.
    public let memberCount: Int
    /// When the invitation was made.
    public let invitedAt: Date

    /// Creates an invitation value.
    public init(id: ConversationID, title: String, isGroup: Bool, inviterID: UserID, inviterName: String, memberCount: Int, invitedAt: Date) {
        self.id = id
        self.title = title
        self.isGroup = isGroup
        self.inviterID = inviterID
        self.inviterName = inviterName
        self.memberCount = memberCount
        self.invitedAt = invitedAt
    }
}
