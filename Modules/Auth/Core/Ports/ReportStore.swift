import Foundation
import Kernel

/// Where a server keeps reports of messages (`MessageReport`). Memory, SQLite and PostgreSQL
/// implement it.
public protocol ReportStore: Sendable {
    /// Keeps `report`, unless its reporter reported that message already: the report kept.
    func add(_ report: MessageReport) async throws -> MessageReport
    /// The newest `limit` reports, newest first: open ones alone, or (`includingResolved`) all.
    func reports(includingResolved: Bool, limit: Int) async throws -> [MessageReport]
    /// Report `id`, or `nil`.
    func report(_ id: String) async throws -> MessageReport?
    /// Marks report `id` resolved at `now` by `resolution`, once, and forgets its copy of the
    /// message's text (the admin has decided: it is kept no longer than that); the report as it
    /// is now, or `nil`.
    func resolve(_ id: String, at now: Date, resolution: String) async throws -> MessageReport?
}

/// What reports need of Chat, through the composition root: a message as its reporter reads it,
/// and its deletion for everyone when an admin decides so.
public protocol ReportedMessages: Sendable {
    /// Message `id` of `conversationID` as `reader` reads it now: its sender, text and whether it
    /// is deleted.
    /// - Throws: as a read of it by `reader` is refused (`.forbidden` for a non-member,
    ///   `.notFound` for no such message).
    func message(_ id: MessageID, in conversationID: ConversationID, readBy reader: UserID) async throws -> (
        sender: UserID, text: String, deleted: Bool
    )
    /// Deletes message `id` for everyone, whoever sent it, as its author's deletion would.
    func deleteForEveryone(_ id: MessageID, in conversationID: ConversationID) async throws
}

/// Reports in memory: the memory backend's and the unit tests' `ReportStore`.
public actor InMemoryReportStore: ReportStore {
    private var kept: [MessageReport] = []

    /// No reports.
    public init() {}

    public func add(_ report: MessageReport) -> MessageReport {
        if let earlier = kept.first(where: {
            $0.conversationID == report.conversationID && $0.messageID == report.messageID && $0.reporterID == report.reporterID
        }) {
            return earlier
        }
        kept.append(report)
        return report
    }

    public func reports(includingResolved: Bool, limit: Int) -> [MessageReport] {
        Array(kept.reversed().filter { includingResolved || $0.resolvedAt == nil }.prefix(limit))
    }

    public func report(_ id: String) -> MessageReport? { kept.first { $0.id == id } }

    public func resolve(_ id: String, at now: Date, resolution: String) -> MessageReport? {
        guard let index = kept.firstIndex(where: { $0.id == id }) else { return nil }
        let report = kept[index]
        guard report.resolvedAt == nil else { return report }
        kept[index] = MessageReport(
            id: report.id, conversationID: report.conversationID, messageID: report.messageID, senderID: report.senderID, text: "",
            reporterID: report.reporterID, reason: report.reason, reportedAt: report.reportedAt, resolvedAt: now, resolution: resolution)
        return kept[index]
    }
}
