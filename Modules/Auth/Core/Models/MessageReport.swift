import Foundation
import Kernel

/// A message someone reported to the server's admins: the message as it was when reported (its
/// sender and text), who reported it and why, and what an admin decided. The only conversation
/// content an admin ever sees (ADR 39).
public struct MessageReport: Codable, Equatable, Sendable {
    /// What names it, to resolve it.
    public let id: String
    /// The conversation of the message.
    public let conversationID: ConversationID
    /// The message.
    public let messageID: MessageID
    /// Who sent it.
    public let senderID: UserID
    /// Its text when it was reported.
    public let text: String
    /// Who reported it.
    public let reporterID: UserID
    /// Why, in the reporter's words.
    public let reason: String
    /// When.
    public let reportedAt: Date
    /// When an admin resolved it, or `nil` while it is open.
    public let resolvedAt: Date?
    /// What the admin did: `dismissed` or `message deleted`.
    public let resolution: String?

    /// Creates the value.
    public init(
        id: String, conversationID: ConversationID, messageID: MessageID, senderID: UserID, text: String, reporterID: UserID, reason: String,
        reportedAt: Date, resolvedAt: Date? = nil, resolution: String? = nil
    ) {
        self.id = id
        self.conversationID = conversationID
        self.messageID = messageID
        self.senderID = senderID
        self.text = text
        self.reporterID = reporterID
        self.reason = reason
        self.reportedAt = reportedAt
        self.resolvedAt = resolvedAt
        self.resolution = resolution
    }

    /// One line for an admin's listing: id, when, state, who reported whom and why.
    public var line: String {
        let state = resolution.map { "resolved: \($0)" } ?? "open"
        return "\(id)  \(reportedAt.formatted(.iso8601))  \(state)  by \(reporterID) about \(senderID)'s \(messageID) in \(conversationID): \(reason)"
    }
}

/// The rules of reports, for every store: what may be reported, and how an admin resolves one.
public enum ReportRules {
    /// What resolving a report did.
    public static let dismissed = "dismissed", messageDeleted = "message deleted"

    /// A new report by `reporter` of `message` (as it reads now) for `reason`.
    /// - Throws: `.invalidInput` for a reason that is empty, too long or not plain text;
    ///   `.conflict` for a deleted message or one of the reporter's own.
    public static func report(
        _ messageID: MessageID, in conversationID: ConversationID, as message: (sender: UserID, text: String, deleted: Bool), by reporter: UserID,
        reason: String, at now: Date
    ) throws -> MessageReport {
        let reason = try Validation.reason(reason)
        guard !message.deleted else { throw AppError(.conflict, "that message was deleted: there is nothing to report") }
        guard message.sender != reporter else { throw AppError(.conflict, "you cannot report your own message: delete it") }
        return MessageReport(
            id: String(SessionToken.generate().prefix(10)), conversationID: conversationID, messageID: messageID, senderID: message.sender,
            text: message.text, reporterID: reporter, reason: reason, reportedAt: now)
    }

    /// A report id no report has.
    public static func noReport(_ id: String) -> AppError { AppError(.notFound, "no report \(AppError.quoting(id))") }
}
