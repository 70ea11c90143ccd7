import ConversationList
import Foundation
import Kernel
import PostgresNIO
import PostgresStore

/// Members' notification choices in a PostgreSQL database, as on SQLite
/// (`SQLNotificationChoiceStore`), each written with its `StoreChange` in one transaction.
public struct PostgresNotificationChoiceStore: NotificationChoiceStore {
    /// The choices' table, as on SQLite (its `placed_at` migration 3).
    public static let migrations = [
        PGDatabase.Migration(
            feature: "conversationlist", version: 2,
            [
                """
                CREATE TABLE conversation_notifications (user_id text COLLATE "C" NOT NULL, conversation_id text COLLATE "C" NOT NULL,
                                                         level text NOT NULL, until bigint, PRIMARY KEY (user_id, conversation_id))
                """
            ]),
        PGDatabase.Migration(feature: "conversationlist", version: 3, ["ALTER TABLE conversation_notifications ADD COLUMN placed_at bigint"]),
    ]

    private let database: PGDatabase

    /// The store of an open database.
    public init(database: PGDatabase) { self.database = database }

    public func choices(of member: UserID) async throws -> [ConversationID: NotificationChoice] {
        var choices: [ConversationID: NotificationChoice] = [:]
        for row in try await database.query(
            "SELECT conversation_id, level, until, placed_at FROM conversation_notifications WHERE user_id = \(member.rawValue)")
        {
            let (conversation, level, until, placedAt) = try row.decode((String, String, Int64?, Int64?).self)
            guard let level = NotificationLevel(rawValue: level) else { continue }
            choices[ConversationID(conversation)] = NotificationChoice(
                level: level, until: until.map(WireFormat.date(milliseconds:)), placedAt: placedAt.map(WireFormat.date(milliseconds:)))
        }
        return choices
    }

    public func choose(_ choice: NotificationChoice?, in conversationID: ConversationID, for member: UserID) async throws {
        try await database.write { transaction in
            if let choice {
                try await transaction.query(
                    """
                    INSERT INTO conversation_notifications (user_id, conversation_id, level, until, placed_at)
                    VALUES (\(member.rawValue), \(conversationID.rawValue), \(choice.level.rawValue), \(choice.until.map(WireFormat.milliseconds)),
                            \(choice.placedAt.map(WireFormat.milliseconds)))
                    ON CONFLICT (user_id, conversation_id) DO UPDATE SET level = excluded.level, until = excluded.until, placed_at = excluded.placed_at
                    """)
            } else {
                try await transaction.query(
                    "DELETE FROM conversation_notifications WHERE user_id = \(member.rawValue) AND conversation_id = \(conversationID.rawValue)")
            }
            try await PostgresChangeLog.record(.notificationsChosen(in: conversationID, by: member), audience: [member], transaction)
        }
    }
}
