import Foundation
import GRDB
import Kernel

/// The store-wide order of everything a user may see: one sequence that numbers messages (Chat's
/// `messages.seq`) and `StoreChange`s alike, and the table of those changes. A feature records
/// its change in the transaction that makes it, so a change is never stored without its event.
///
/// - `store_sequence`: one row, the last number handed out.
/// - `store_changes`: `seq` from the sequence, the change's `kind` and fields.
/// - `store_audiences`: who sees each change (`user_id`, `seq`), decided when it is stored, so
///   that reading a user's changes, or handing a new one to live readers, costs an index look-up
///   whatever the change concerns.
public enum SQLChangeLog {
    /// The tables, migrated before any feature's.
    static let migrations = [
        SchemaMigration(
            feature: "store", version: 1,
            sql: """
                CREATE TABLE store_sequence (value INTEGER NOT NULL);
                INSERT INTO store_sequence (value) VALUES (0);
                CREATE TABLE store_changes (
                    seq INTEGER PRIMARY KEY,
                    kind TEXT NOT NULL,
                    conversation_id TEXT,
                    user_id TEXT,
                    display_name TEXT
                );
                CREATE INDEX store_changes_by_conversation ON store_changes(conversation_id) WHERE conversation_id IS NOT NULL;
                """),
        // Changes stored before this step get their audience from the features' own step that
        // follows it (they know who saw what).
        SchemaMigration(
            feature: "store", version: 2,
            sql: """
                CREATE TABLE store_audiences (
                    user_id TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    PRIMARY KEY (user_id, seq)
                ) WITHOUT ROWID;
                CREATE INDEX store_audiences_by_seq ON store_audiences(seq);
                """),
    ]

    /// The next number of the store's order; call it inside the write transaction that stores
    /// what it numbers.
    public static func next(_ db: Database) throws -> Int64 { try next(count: 1, db) }

    /// The first of the next `count` numbers of the store's order (at least 1), taken at once
    /// for a transaction that stores several things.
    public static func next(count: Int, _ db: Database) throws -> Int64 {
        guard
            let last = try Int64.fetchOne(
                db.cachedStatement(sql: "UPDATE store_sequence SET value = value + ? RETURNING value"),
                arguments: [count])
        else {
            throw AppError(.unavailable, "the database has no store sequence; it is damaged")
        }
        return last - Int64(count) + 1
    }

    /// The last number handed out (0 for none): where a live reader starts, and past which no
    /// cursor of this store can be.
    public static func newest(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM store_sequence")) ?? 0
    }

    /// Records `change` with the next number, seen by `audience`, and returns that number.
    @discardableResult
    public static func record(_ change: StoreChange, audience: [UserID], _ db: Database) throws -> Int64 {
        let seq = try next(db)
        try db.cachedStatement(sql: "INSERT INTO store_changes (seq, kind, conversation_id, user_id, display_name) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [seq, change.kind.rawValue, change.conversationID?.rawValue, change.userID?.rawValue, change.displayName])
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO store_audiences (user_id, seq) SELECT value, ? FROM json_each(?)")
            .execute(arguments: [seq, try JSONIDs.encode(audience)])
        return seq
    }

    /// Records `changes`, numbered in their order, each seen by one person alone, in three
    /// statements whatever their number (a new group's invitations).
    public static func record(each changes: [(change: StoreChange, seenBy: UserID)], _ db: Database) throws {
        guard !changes.isEmpty else { return }
        let first = try next(count: changes.count, db)
        let rows = String(
            decoding: try JSONEncoder().encode(
                changes.map { change, seenBy in
                    [change.kind.rawValue, change.conversationID?.rawValue, change.userID?.rawValue, change.displayName, seenBy.rawValue]
                }), as: UTF8.self)
        try db.execute(
            sql: """
                INSERT INTO store_changes (seq, kind, conversation_id, user_id, display_name)
                SELECT ? + key, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]')
                FROM json_each(?)
                """, arguments: [first, rows])
        try db.execute(
            sql: "INSERT OR IGNORE INTO store_audiences (user_id, seq) SELECT json_extract(value, '$[4]'), ? + key FROM json_each(?)",
            arguments: [first, rows])
    }

    /// Who sees each of the changes numbered above `seq`, by number.
    public static func audiences(after seq: Int64, _ db: Database) throws -> [Int64: [UserID]] {
        var audiences: [Int64: [UserID]] = [:]
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT seq, user_id FROM store_audiences WHERE seq > ?"), arguments: [seq])
        while let row = try rows.next() { audiences[row[0], default: []].append(UserID(row[1] as String)) }
        return audiences
    }

    /// The columns `change(_:)` reads, for a `SELECT` from `store_changes s`.
    public static let columns = "s.seq, s.kind, s.conversation_id, s.user_id, s.display_name"

    /// The change in a row of `columns`, with its number.
    /// - Throws: when the row is damaged.
    public static func change(_ row: Row) throws -> (seq: Int64, change: StoreChange) {
        guard let kind = StoreChange.Kind(rawValue: try row.decode(String.self, atIndex: 1)) else {
            throw AppError(.internal, "store change \(try row.decode(Int64.self, atIndex: 0)) is of an unknown kind")
        }
        let change = try StoreChange(
            stored: kind, conversationID: try row.decode(String?.self, atIndex: 2).map(ConversationID.init(rawValue:)),
            userID: try row.decode(String?.self, atIndex: 3).map(UserID.init(rawValue:)),
            displayName: try row.decode(String?.self, atIndex: 4))
        return (try row.decode(Int64.self, atIndex: 0), change)
    }
}
