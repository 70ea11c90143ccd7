import Auth
import Foundation
import Kernel
import PostgresNIO
import PostgresStore

/// Reports of messages in PostgreSQL (`auth_reports`), one set for every instance. Times are
/// seconds since 1970.
public struct PostgresReportStore: ReportStore {
    /// The table's migration.
    static let migration = PGDatabase.Migration(
        feature: "auth", version: 8,
        [
            """
            CREATE TABLE auth_reports (id text COLLATE "C" PRIMARY KEY, conversation_id text COLLATE "C" NOT NULL,
                                       message_id text COLLATE "C" NOT NULL, sender_id text COLLATE "C" NOT NULL, text text NOT NULL,
                                       reporter_id text COLLATE "C" NOT NULL, reason text NOT NULL, reported_at double precision NOT NULL,
                                       resolved_at double precision, resolution text, UNIQUE (conversation_id, message_id, reporter_id))
            """,
            "CREATE INDEX auth_reports_by_time ON auth_reports (reported_at)",
        ])

    private let database: PGDatabase

    /// The reports of an open database.
    public init(database: PGDatabase) { self.database = database }

    public func add(_ report: MessageReport) async throws -> MessageReport {
        let (conversation, message, reporter) = (report.conversationID.rawValue, report.messageID.rawValue, report.reporterID.rawValue)
        try await database.query(
            """
            INSERT INTO auth_reports (id, conversation_id, message_id, sender_id, text, reporter_id, reason, reported_at)
            VALUES (\(report.id), \(conversation), \(message), \(report.senderID.rawValue), \(report.text), \(reporter), \(report.reason),
                    \(report.reportedAt.timeIntervalSince1970))
            ON CONFLICT DO NOTHING
            """)
        return try await database.query(
            "\(unescaped: Self.columns) WHERE conversation_id = \(conversation) AND message_id = \(message) AND reporter_id = \(reporter)"
        ).first.map(Self.report) ?? report
    }

    public func reports(includingResolved: Bool, limit: Int) async throws -> [MessageReport] {
        try await database.query(
            "\(unescaped: Self.columns) \(unescaped: includingResolved ? "" : "WHERE resolved_at IS NULL") ORDER BY reported_at DESC, id LIMIT \(limit)"
        ).map(Self.report)
    }

    public func report(_ id: String) async throws -> MessageReport? {
        try await database.query("\(unescaped: Self.columns) WHERE id = \(id)").first.map(Self.report)
    }

    public func resolve(_ id: String, at now: Date, resolution: String) async throws -> MessageReport? {
        try await database.query(
            """
            UPDATE auth_reports SET resolved_at = \(now.timeIntervalSince1970), resolution = \(resolution), text = ''
            WHERE id = \(id) AND resolved_at IS NULL
            """)
        return try await report(id)
    }

    private static let columns =
        "SELECT id, conversation_id, message_id, sender_id, text, reporter_id, reason, reported_at, resolved_at, resolution FROM auth_reports"

    private static func report(_ row: PostgresRow) throws -> MessageReport {
        let columns = row.makeRandomAccess()
        return MessageReport(
            id: try columns[0].decode(String.self), conversationID: ConversationID(try columns[1].decode(String.self)),
            messageID: MessageID(try columns[2].decode(String.self)), senderID: UserID(try columns[3].decode(String.self)),
            text: try columns[4].decode(String.self), reporterID: UserID(try columns[5].decode(String.self)),
            reason: try columns[6].decode(String.self), reportedAt: Date(timeIntervalSince1970: try columns[7].decode(Double.self)),
            resolvedAt: try columns[8].decode(Double?.self).map(Date.init(timeIntervalSince1970:)), resolution: try columns[9].decode(String?.self))
    }
}
