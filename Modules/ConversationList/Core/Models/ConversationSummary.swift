import Foundation
import Kernel

/// One row of the conversation list.
public struct ConversationSummary: Codable, Equatable, Sendable, Identifiable {
    /// The conversation.
    public let id: ConversationID
    /// The group title, or for a one-to-one conversation the other person's name.
    public let title: String
    /// True for a group.
    public let isGroup: Bool
    /// Members, including the reader.
    public let memberIDs: [UserID]
    /// The newest message, if any.
    public private(set) var lastMessage: MessagePreview?
    /// Messages the reader has not read.
    public private(set) var unreadCount: Int
    /// Of those, the ones that mention the reader (`@Name`).
    public private(set) var unreadMentions: Int
    /// When the newest message was sent, or when the conversation was created.
    public let lastActivityAt: Date
    /// What the reader chose to be told of here, while it stands; `nil`: the standard level
    /// (`NotificationLevel.standard`).
    public private(set) var notifications: NotificationChoice?
    /// Only in the answer that starts the conversation, and only when someone named in it was
    /// not invited: who, and why (`nil` in the list).
    public private(set) var notInvited: [NotInvited]?

    /// Creates a row.
    public init(conversation: Conversation, title: String, activity: ConversationActivity) {
        id = conversation.id
        self.title = title
        isGroup = conversation.isGroup
        memberIDs = conversation.memberIDs
        lastMessage = activity.lastMessage
        unreadCount = activity.unreadCount
        unreadMentions = activity.unreadMentions
        lastActivityAt = activity.lastMessage?.sentAt ?? conversation.createdAt
    }

    /// Decodes a row as a server sends it; one without `unreadMentions` (a server from before
    /// mentions) has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(ConversationID.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        isGroup = try container.decode(Bool.self, forKey: .isGroup)
        memberIDs = try container.decode([UserID].self, forKey: .memberIDs)
        lastMessage = try container.decodeIfPresent(MessagePreview.self, forKey: .lastMessage)
        unreadCount = try container.decode(Int.self, forKey: .unreadCount)
        unreadMentions = try container.decodeIfPresent(Int.self, forKey: .unreadMentions) ?? 0
        lastActivityAt = try container.decode(Date.self, forKey: .lastActivityAt)
        notInvited = try container.decodeIfPresent([NotInvited].self, forKey: .notInvited)
        notifications = try container.decodeIfPresent(NotificationChoice.self, forKey: .notifications)
    }

    /// The row without anything of its messages: no newest message, nothing unread (for a
    /// reader that may not read them, `ConversationRules.row`).
    public func withoutMessages() -> Self {
        var row = self
        (row.lastMessage, row.unreadCount, row.unreadMentions) = (nil, 0, 0)
        return row
    }

    /// This row with the reader's `choice` of what tells them.
    public func choosing(_ choice: NotificationChoice?) -> Self {
        var row = self
        row.notifications = choice
        return row
    }

    /// Whether unread messages here are quiet: the reader chose to hear of mentions only, or of
    /// nothing. The hotlist leaves out such a conversation unless a mention is unread.
    public var isQuiet: Bool { notifications.map { $0.level != .all } ?? false }

    /// This row as the answer to starting its conversation: telling who of those named in it was
    /// not invited (none: the row as it is).
    public func started(notInviting people: [NotInvited]) -> Self {
        var answer = self
        answer.notInvited = people.isEmpty ? nil : people
        return answer
    }

    /// Where the row stands in the list: its last activity, but a quiet conversation's no later
    /// than its last activity when it went quiet (`NotificationChoice.placedAt`): the messages
    /// it quiets do not move it up, while an unread mention does where mentions still tell.
    public var placedAt: Date {
        let mentioned = unreadMentions > 0 && notifications?.level == .mentions
        guard isQuiet, !mentioned, let held = notifications?.placedAt else { return lastActivityAt }
        return min(lastActivityAt, held)
    }

    /// `rows` by their place (`placedAt`), the latest first; ties broken by id so the order is
    /// stable. Sorts positions by a precomputed key, then moves each row once: sorting the rows
    /// themselves copies every field at each swap, which dominated the time of a 10,000-row list.
    public static func byRecentActivity(_ rows: [Self]) -> [Self] {
        let times = rows.map(\.placedAt)
        let order = rows.indices.sorted { a, b in times[a] != times[b] ? times[a] > times[b] : rows[a].id < rows[b].id }
        return order.map { rows[$0] }
    }
}
