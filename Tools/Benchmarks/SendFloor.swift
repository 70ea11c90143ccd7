import Foundation
import GRDBSQLite
import Kernel

/// What SQLite itself does on this machine with the SQL of an acknowledged send: the same
/// statements `MessageWriter` runs for a send that is alone (look up its id, take its number,
/// read the conversation's count, insert the message, move the activity row and the sender's
/// read marker, in one IMMEDIATE transaction), prepared once and run through SQLite's C API on
/// a connection of its own with the backend's file settings. `messageai-bench send` divides the
/// services' rate by this one.
struct SendFloor {
    private var connection: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    /// Opens the database at `path`, made by the services (same schema, same settings).
    init(path: String) throws {
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { throw failure("open") }
        try execute("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA wal_autocheckpoint = 8000; PRAGMA busy_timeout = 10000")
    }

    /// Closes the connection.
    mutating func close() {
        statements.values.forEach { sqlite3_finalize($0) }
        statements = [:]
        sqlite3_close(connection)
        connection = nil
    }

    /// Stores `count` messages from `sender` in `conversation`, one transaction each; returns
    /// how many per second.
    mutating func rate(count: Int, in conversation: ConversationID, from sender: UserID) throws -> Double {
        let start = ContinuousClock.now
        for index in 0..<count {
            try send(
                id: MessageID.random().rawValue, text: "message \(index) " + Seeder.text, conversation: conversation.rawValue,
                sender: sender.rawValue, sentAt: Int64(Date().timeIntervalSince1970 * 1_000))
        }
        return Double(count) / ((ContinuousClock.now - start) / .seconds(1))
    }

    private mutating func send(id: String, text: String, conversation: String, sender: String, sentAt: Int64) throws {
        try run("BEGIN IMMEDIATE")
        // The writer's look-up of ids already stored, then its number from the store's sequence.
        try run(
            "SELECT m.id, m.conversation_id, m.sender_id, m.text, m.sent_at, m.seq FROM json_each(?) ids CROSS JOIN messages m ON m.conversation_id = ? AND m.id = ids.value",
            ["[\"\(id)\"]", conversation])
        let seq = try run("UPDATE store_sequence SET value = value + ? RETURNING value", [Int64(1)]) ?? 0
        let position = (try run("SELECT message_count FROM chat_activity WHERE conversation_id = ?", [conversation]) ?? 0) + 1
        try run(
            "INSERT INTO messages (seq, id, conversation_id, position, sender_id, text, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [seq, id, conversation, position, sender, text, sentAt])
        try run(
            """
            INSERT INTO chat_activity (conversation_id, message_count, last_seq) VALUES (?, ?, ?)
            ON CONFLICT (conversation_id) DO UPDATE SET message_count = excluded.message_count, last_seq = excluded.last_seq
            """, [conversation, position, seq])
        try run(
            """
            INSERT INTO chat_reads (user_id, conversation_id, read_count) VALUES (?, ?, ?)
            ON CONFLICT (user_id, conversation_id) DO UPDATE SET read_count = max(read_count, excluded.read_count)
            """, [sender, conversation, position])
        try run("COMMIT")
    }

    /// Runs a cached statement with `arguments` to its end; the first column of its first row, if any.
    @discardableResult
    private mutating func run(_ sql: String, _ arguments: [any Sendable] = []) throws -> Int64? {
        let statement = try prepared(sql)
        defer { sqlite3_reset(statement) }
        for (index, argument) in arguments.enumerated() {
            let position = Int32(index + 1)
            switch argument {
            case let value as Int64: sqlite3_bind_int64(statement, position, value)
            case let value as String: sqlite3_bind_text(statement, position, value, -1, Self.transient)
            default: throw failure("bind \(type(of: argument))")
            }
        }
        var first: Int64?
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: if first == nil { first = sqlite3_column_int64(statement, 0) }
            case SQLITE_DONE: return first
            default: throw failure(sql)
            }
        }
    }

    private mutating func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement else {
            throw failure("prepare \(sql)")
        }
        statements[sql] = statement
        return statement
    }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(connection, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    private func failure(_ what: String) -> AppError {
        AppError(.internal, "SQLite floor: \(what): \(String(cString: sqlite3_errmsg(connection)))")
    }

    /// SQLite's "copy the bound text now".
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
