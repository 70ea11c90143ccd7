import ChatLive
import FilesLive
import Foundation
import GRDB
import Kernel
import Logging
import PostgresNIO
import PostgresStore
import SQLStore

/// Moves a server's store from its SQLite file into a new PostgreSQL database
/// (`messageai-server migrate`): every account, session, profile, conversation, membership,
/// mute, message, mention, read marker, event and shared file (its bytes too), with the store's positions as they were, in one transaction.
/// An interrupted move leaves the database as empty as it found it, and a database that holds
/// anything already is refused, so running it again either finishes or says why not; nothing is
/// ever copied twice. The database keeps the epoch it was made with, so clients holding cursors
/// of the SQLite store are told to reload (`socket.reset`) rather than resuming past a gap.
public enum StoreMigration {
    /// What was copied: rows per table, in copying order, and the database's epoch.
    public struct Summary: Sendable {
        public let rows: [(table: String, count: Int)]
        public let epoch: String
    }

    /// A table copied: the columns it is read in order of (its key), and its times, which
    /// SQLite may hold as GRDB writes a `Date` (text) and PostgreSQL holds as seconds since 1970.
    struct Table {
        let name: String
        let order: String
        var times: Set<String> = []
    }

    /// The tables copied, parents before the rows that refer to them.
    static let tables: [Table] = [
        Table(name: "auth_accounts", order: "id", times: ["created_at", "suspended_at", "admin_since"]),
        Table(name: "auth_sessions", order: "token_digest", times: ["created_at", "last_used_at"]),
        Table(name: "auth_registration_codes", order: "id", times: ["expires_at", "created_at"]),
        Table(name: "auth_reset_codes", order: "digest", times: ["expires_at"]),
        Table(name: "auth_audit", order: "id", times: ["at"]),
        Table(name: "auth_reports", order: "id", times: ["reported_at", "resolved_at"]),
        Table(name: "auth_bots", order: "id", times: ["created_at"]),
        Table(name: "auth_bot_tokens", order: "id", times: ["created_at", "expires_at"]),
        Table(name: "auth_bot_hooks", order: "id", times: ["created_at"]),
        Table(name: "profiles", order: "id"), Table(name: "conversations", order: "id", times: ["created_at"]),
        Table(name: "conversation_members", order: "user_id, conversation_id", times: ["invited_at"]),
        Table(name: "conversation_accepts", order: "user_id, accepted_id"), Table(name: "conversation_blocks", order: "user_id, blocked_id"),
        Table(name: "conversation_notifications", order: "user_id, conversation_id"),
        Table(name: "messages", order: "seq"), Table(name: "message_mentions", order: "user_id, seq"),
        Table(name: "chat_activity", order: "conversation_id"),
        Table(name: "chat_reads", order: "user_id, conversation_id"), Table(name: "store_changes", order: "seq"),
        Table(name: "store_audiences", order: "user_id, seq"), Table(name: "message_changes", order: "seq"),
        Table(name: "chat_receipt_privacy", order: "user_id"), Table(name: "files", order: "id"),
    ]

    /// The SQLite tables not copied, each for its reason: GRDB's record of migrations; the epoch
    /// and the sequence, which the database keeps its own of (the sequence set from SQLite's);
    /// SQLite's search index and its progress, which PostgreSQL's index replaces. A table in
    /// neither list stops the move before anything is copied: nothing is left behind unnoticed.
    static let notCopied: Set<String> = [
        "grdb_migrations", "chat_epoch", "store_sequence", "search_progress", "search_index", "auth_session_ends",
    ]

    /// Rows read from SQLite and written to PostgreSQL at a time.
    static let pageRows = 2_000

    /// Copies the store of the SQLite file at `path` into the PostgreSQL database at `url`,
    /// telling `progress` of each table as it is done.
    /// - Throws: `AppError(.usage)` for a file that does not exist or a database that is not
    ///   empty; `.unavailable` when either cannot be opened; the database's error when the copy
    ///   fails (then nothing of it stays).
    public static func sqliteToPostgres(from path: String, to url: String, progress: @Sendable (String) -> Void) async throws -> Summary {
        guard FileManager.default.fileExists(atPath: path) else { throw AppError(.usage, "there is no SQLite database at \(path)") }
        let sqlite = try SQLDatabase(path: path, migrations: SQLiteBackend.migrations)
        let snapshot: DatabaseSnapshot
        do {
            snapshot = try sqlite.pool.makeSnapshot()
        } catch {
            throw AppError(.unavailable, "cannot read \(path): \(error)")
        }
        var logger = Logger(label: "messageai.migrate")
        logger.logLevel = .warning
        let postgres = try await PGDatabase.open(url, migrations: PostgresBackend.migrations, connections: 2, logger: logger)
        defer { postgres.close() }
        let held =
            try await postgres.query(
                """
                SELECT (SELECT count(*) FROM auth_accounts), (SELECT count(*) FROM conversations), (SELECT count(*) FROM store_changes)
                       + (SELECT count(*) FROM messages)
                """
            ).first?.decode((Int, Int, Int).self) ?? (0, 0, 0)
        guard held == (0, 0, 0) else {
            throw AppError(
                .usage,
                "the database \(try PGDatabase.Location(url: url)) is not empty (\(held.0) accounts, \(held.1) conversations, "
                    + "\(held.2) messages and events): migrate into a new, empty database")
        }
        let names = try await snapshot.read { db in
            // An FTS5 table's shadow tables are named after it.
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT GLOB 'sqlite_*' AND name NOT GLOB 'search_index_*'")
        }
        if let missed = Set(names).subtracting(tables.map(\.name)).subtracting(notCopied).sorted().first {
            throw AppError(.internal, "the table \(missed) has no place in the move; nothing was copied")
        }
        let sequence = try await snapshot.read { db in try Int64.fetchOne(db, sql: "SELECT value FROM store_sequence") ?? 0 }
        let rows = try await postgres.write(ordered: true) { transaction in
            var rows: [(table: String, count: Int)] = []
            for table in tables {
                var copied = 0
                while true {
                    let page = try snapshot.read { db in
                        try Row.fetchAll(db, sql: "SELECT * FROM \(table.name) ORDER BY \(table.order) LIMIT \(pageRows) OFFSET \(copied)")
                    }
                    guard !page.isEmpty else { break }
                    try await transaction.query(
                        PostgresQuery(
                            unsafeSQL: """
                                INSERT INTO \(table.name) SELECT * FROM json_populate_recordset(NULL::\(table.name), $1::json)
                                """, binds: try binds(json(page, times: table.times))))
                    copied += page.count
                }
                let stored = try await transaction.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table.name)")).first?.decode(Int.self)
                guard stored == copied else {
                    throw AppError(.internal, "\(table.name): \(copied) rows read, \(stored ?? 0) stored; nothing was kept")
                }
                rows.append((table.name, copied))
                progress("\(table.name): \(copied) rows")
            }
            // The files' bytes, from the folder beside the SQLite file into chunk rows, in the same transaction.
            let files = try await snapshot.read { db in try String.fetchAll(db, sql: "SELECT id FROM files ORDER BY id") }
            for id in files {
                let bytes = try FileStreams.reading(path + ".files/" + id).bytes
                try await PostgresFilesStore.insertChunks(of: FileID(id), bytes, clock: SystemWallClock()) { try await transaction.query($0) }
            }
            if !files.isEmpty { progress("file bytes: \(files.count) files") }
            try await transaction.query("UPDATE store_sequence SET value = \(sequence)")
            return rows
        }
        // The planner's statistics of what was copied, now rather than at autovacuum's first pass.
        try await postgres.analyzeTablesWithoutStatistics()
        return Summary(rows: rows, epoch: try await PostgresChatSchema.epoch(of: postgres))
    }

    /// `rows` as a JSON array of objects, one key a column; the columns in `times` as seconds since 1970.
    private static func json(_ rows: [Row], times: Set<String>) throws -> String {
        let objects = try rows.map { row in
            Dictionary(
                try row.columnNames.map { column -> (String, Any) in
                    let value: DatabaseValue = row[column]
                    if times.contains(column), case .string(let text) = value.storage {
                        guard let date = Date.fromDatabaseValue(value) else {
                            throw AppError(.unavailable, "\(column) holds \(AppError.quoting(text)), which is not a time; nothing was copied")
                        }
                        return (column, date.timeIntervalSince1970)
                    }
                    return switch value.storage {
                    case .int64(let number): (column, number)
                    case .double(let number): (column, number)
                    case .string(let text): (column, text)
                    case .blob(let data): (column, data.base64EncodedString())
                    case .null: (column, NSNull())
                    }
                }, uniquingKeysWith: { first, _ in first })
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: objects), as: UTF8.self)
    }

    private static func binds(_ text: String) throws -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(text, context: .default)
        return binds
    }
}
