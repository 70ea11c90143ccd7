import Foundation

/// What a member chose to be told of in one conversation (`NotificationLevel`), until when if
/// not for good. Kept by the conversation list for every device of the person; Chat's
/// `NotificationRules` follows it, and the hotlist leaves out what it quiets.
public struct NotificationChoice: Codable, Equatable, Sendable {
    /// The level chosen.
    public let level: NotificationLevel
    /// When it ends, and the conversation's standard level is back; `nil` for good.
    public let until: Date?
    /// The conversation's last activity when the choice was made: while the choice quiets it,
    /// the list places it no later than that, so that what arrives since does not move it up
    /// (`nil`: a choice kept before this was recorded).
    public let placedAt: Date?

    /// `level`, until `until` (for good when `nil`), holding the conversation at `placedAt` in
    /// the list; each to the millisecond, as every store keeps it.
    public init(level: NotificationLevel, until: Date?, placedAt: Date? = nil) {
        self.level = level
        self.until = until.map(Self.milliseconds)
        self.placedAt = placedAt.map(Self.milliseconds)
    }

    private static func milliseconds(_ date: Date) -> Date { WireFormat.date(milliseconds: WireFormat.milliseconds(date)) }

    /// The choice as it stands at `now`: `nil` once it has ended.
    public func standing(at now: Date) -> NotificationChoice? {
        if let until, until <= now { return nil }
        return self
    }
}

/// What in a conversation tells its member when it arrives (Chat's `NotificationRules`): every
/// message (`all`), messages that mention them (`mentions`), or nothing (`none`). Each member
/// may choose one per conversation, kept by the conversation list. Unless the member chose, a one-to-one
/// conversation tells of every message and a group of mentions only: what people are told by
/// default is what they would not want to miss.
public enum NotificationLevel: String, Sendable, CaseIterable, Codable {
    case all, mentions, none

    /// The level of a conversation whose member has not chosen one.
    public static func standard(isDirect: Bool) -> NotificationLevel { isDirect ? .all : .mentions }
}
