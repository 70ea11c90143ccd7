import Auth
import Foundation
import GRDB
import Kernel
import SQLStore

/// Reports of messages in a server's SQLite file (`auth_reports`).
public struct SQLReportStore: ReportStore {
    private let database: SQLDatabase

    /// The reports of an open database.
    public init(database: SQLDatabase) { self.database = database }

    public func add(_ report: MessageReport) async throws -> MessageReport {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO auth_reports (id, conversation_id, message_id, sender_id, text, reporter_id, reason, reported_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """,
                arguments: [
                    report.id, report.conversationID.rawValue, report.messageID.rawValue, report.senderID.rawValue, report.text,
                    report.reporterID.rawValue, report.reason, report.reportedAt,
                ])
            return try Row.fetchOne(
                db, sql: Self.columns + " WHERE conversation_id = ? AND message_id = ? AND reporter_id = ?",
                arguments: [report.conversationID.rawValue, report.messageID.rawValue, report.reporterID.rawValue]
            ).map(Self.report) ?? report
        }
    }

    public func reports(includingResolved: Bool, limit: Int) async throws -> [MessageReport] {
        try await database.read { db in
            try Row.fetchAll(
                db, sql: Self.columns + (includingResolved ? "" : " WHERE resolved_at IS NULL") + " ORDER BY reported_at DESC, id LIMIT ?",
                arguments: [limit]
            ).map(Self.report)
        }
    }

    public func report(_ id: String) async throws -> MessageReport? {
        try await database.read { db in try Row.fetchOne(db, sql: Self.columns + " WHERE id = ?", arguments: [id]).map(Self.report) }
    }

    public func resolve(_ id: String, at now: Date, resolution: String) async throws -> MessageReport? {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE auth_reports SET resolved_at = ?, resolution = ?, text = '' WHERE id = ? AND resolved_at IS NULL",
                arguments: [now, resolution, id])
            return try Row.fetchOne(db, sql: Self.columns + " WHERE id = ?", arguments: [id]).map(Self.report)
        }
    }

    private static let columns =
        "SELECT id, conversation_id, message_id, sender_id, text, reporter_id, reason, reported_at, resolved_at, resolution FROM auth_reports"

    private static func report(_ row: Row) throws -> MessageReport {
        MessageReport(
            id: row[0], conversationID: ConversationID(row[1] as String), messageID: MessageID(row[2] as String), senderID: UserID(row[3] as String),
            text: row[4], reporterID: UserID(row[5] as String), reason: row[6], reportedAt: row[7], resolvedAt: row[8], resolution: row[9])
    }
}
