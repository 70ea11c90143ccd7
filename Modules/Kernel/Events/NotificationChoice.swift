import Foundation

/// What a member chose to be told of in one conversation (`NotificationLevel`), until when if
/// not for good. Kept by the conversation list for every device of the person; Chat's
/// `NotificationRules` follows it, and the hotlist leaves out what it quiets.
public struct NotificationChoice: Codable, Equatable, Sendable {
    /// The level chosen.
    public let level: NotificationLevel
    /// When it ends, and the conversation's standard level is back; `nil` for good.
    public let until: Date?

    /// `level`, until `until` (for good when `nil`), to the millisecond as every store keeps it.
    public init(level: NotificationLevel, until: Date?) {
        self.level = level
        self.until = until.map { Date(timeIntervalSince1970: Double(WireFormat.milliseconds($0)) / 1_000) }
    }

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
