import ConversationList
import Foundation
import GRDB
import Kernel
import SQLStore

/// Members' notification choices in a SQLite file (`NotificationChoiceStore`), each written with
/// its `StoreChange` in one transaction.
public struct SQLNotificationChoiceStore: NotificationChoiceStore {
    /// The choices' table (`conversationlist` step 5): one row a member and conversation, the
    /// end in milliseconds since 1970 or NULL for good; where the list holds a quiet
    /// conversation (step 6, milliseconds; NULL in rows from before).
    public static let migrations = [
        SchemaMigration(
            feature: "conversationlist", version: 5,
            sql: """
                CREATE TABLE conversation_notifications (
                    user_id TEXT NOT NULL,
                    conversation_id TEXT NOT NULL,
                    level TEXT NOT NULL,
                    until INTEGER,
                    PRIMARY KEY (user_id, conversation_id)
                ) WITHOUT ROWID;
                """),
        SchemaMigration(feature: "conversationlist", version: 6, sql: "ALTER TABLE conversation_notifications ADD COLUMN placed_at INTEGER;"),
    ]

    private let database: SQLDatabase

    /// The store of an open database.
    public init(database: SQLDatabase) { self.database = database }

    public func choices(of member: UserID) async throws -> [ConversationID: NotificationChoice] {
        try await database.read { db in
            var choices: [ConversationID: NotificationChoice] = [:]
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT conversation_id, level, until, placed_at FROM conversation_notifications WHERE user_id = ?"),
                arguments: [member.rawValue])
            while let row = try rows.next() {
                guard let level = NotificationLevel(rawValue: row["level"]) else { continue }
                let (until, placedAt) = (row["until"] as Int64?, row["placed_at"] as Int64?)
                choices[ConversationID(row["conversation_id"] as String)] = NotificationChoice(
                    level: level, until: until.map(WireFormat.date(milliseconds:)), placedAt: placedAt.map(WireFormat.date(milliseconds:)))
            }
            return choices
        }
    }

    public func choose(_ choice: NotificationChoice?, in conversationID: ConversationID, for member: UserID) async throws {
        try await database.write { db in
            if let choice {
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO conversation_notifications (user_id, conversation_id, level, until, placed_at)
                        VALUES (?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        member.rawValue, conversationID.rawValue, choice.level.rawValue, choice.until.map(WireFormat.milliseconds),
                        choice.placedAt.map(WireFormat.milliseconds),
                    ])
            } else {
                try db.execute(
                    sql: "DELETE FROM conversation_notifications WHERE user_id = ? AND conversation_id = ?",
                    arguments: [member.rawValue, conversationID.rawValue])
            }
            try SQLChangeLog.record(.notificationsChosen(in: conversationID, by: member), audience: [member], db)
        }
    }
}
