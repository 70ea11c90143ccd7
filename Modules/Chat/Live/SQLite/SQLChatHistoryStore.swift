import Chat
import Foundation
import GRDB
import Kernel
import SQLStore

/// Chat's history, catch-up, read markers and receipts in the SQLite database, as
/// `StoredChatService` reads and writes them.
public struct SQLChatHistoryStore: ChatHistoryStore {
    private let database: SQLDatabase
    public let epoch: String

    /// The store of an open database whose epoch is `epoch` (`ChatSchema.epoch`).
    public init(database: SQLDatabase, epoch: String) {
        self.database = database
        self.epoch = epoch
    }

    public func page(of conversationID: ConversationID, below position: Int64, limit: Int) async throws -> MessagePage {
        let epoch = epoch
        return try await database.read { db in
            let rows = try Row.fetchAll(db, sql: ChatStatements.page, arguments: [conversationID.rawValue, position, limit])
            let oldest = try rows.last?.decode(Int.self, atIndex: MessageRows.count)
            return MessagePage(messages: try rows.reversed().map { try MessageRows.message($0, epoch: epoch) }, hasOlder: (oldest ?? 1) > 1)
        }
    }

    public func position(of messageID: MessageID, in conversationID: ConversationID) async throws -> Int64? {
        try await database.read { db in
            try Int64.fetchOne(db, sql: ChatStatements.position, arguments: [messageID.rawValue, conversationID.rawValue])
        }
    }

    public func message(_ messageID: MessageID, in conversationID: ConversationID) async throws -> Message? {
        let epoch = epoch
        return try await database.read { db in
            try Row.fetchOne(db.cachedStatement(sql: ChatStatements.message), arguments: [conversationID.rawValue, messageID.rawValue])
                .map { try MessageRows.message($0, epoch: epoch) }
        }
    }

    public func markRead(
        _ conversationID: ConversationID, by reader: UserID, members: [UserID],
        audience: @escaping @Sendable (_ keepingPrivate: Set<UserID>) -> [UserID]
    ) async throws {
        try await database.write { db in
            let count =
                try Int.fetchOne(
                    db, sql: "SELECT message_count FROM chat_activity WHERE conversation_id = ?", arguments: [conversationID.rawValue]) ?? 0
            let read =
                try Int.fetchOne(
                    db, sql: "SELECT read_count FROM chat_reads WHERE user_id = ? AND conversation_id = ?",
                    arguments: [reader.rawValue, conversationID.rawValue]) ?? 0
            guard count > read else { return }
            try ChatReads.set(count, by: reader, in: conversationID, db)
            try SQLChangeLog.record(
                .readMarkerMoved(in: conversationID, by: reader), audience: audience(try Self.keepingPrivate(among: members, db)), db)
        }
    }

    public func keepingReceiptsPrivate(among members: [UserID]) async throws -> Set<UserID> {
        try await database.read { db in try Self.keepingPrivate(among: members, db) }
    }

    /// Those of `members` who keep their read receipts private, read in `db`.
    private static func keepingPrivate(among members: [UserID], _ db: Database) throws -> Set<UserID> {
        Set(
            try String.fetchAll(
                db, sql: "SELECT user_id FROM json_each(?) ids CROSS JOIN chat_receipt_privacy p ON p.user_id = ids.value",
                arguments: [try JSONIDs.encode(members)]
            ).map(UserID.init(rawValue:)))
    }

    public func receipts(in conversationID: ConversationID) async throws -> [ReadReceipt] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.user_id, coalesce(r.read_count, 0), m.id FROM conversation_members c
                    LEFT JOIN chat_reads r ON r.conversation_id = c.conversation_id AND r.user_id = c.user_id
                    LEFT JOIN messages m ON m.conversation_id = c.conversation_id AND m.position = r.read_count
                    WHERE c.conversation_id = ? AND c.state = 'member' ORDER BY c.user_id
                    """, arguments: [conversationID.rawValue]
            ).map { row in
                ReadReceipt(
                    userID: UserID(try row.decode(String.self, atIndex: 0)), readCount: try row.decode(atIndex: 1),
                    lastRead: try row.decode(String?.self, atIndex: 2).map(MessageID.init(rawValue:)))
            }
        }
    }

    public func setReceiptsPrivate(_ isPrivate: Bool, for user: UserID) async throws {
        try await database.write { db in
            try db.execute(
                sql: isPrivate
                    ? "INSERT OR IGNORE INTO chat_receipt_privacy (user_id) VALUES (?)"
                    : "DELETE FROM chat_receipt_privacy WHERE user_id = ?", arguments: [user.rawValue])
        }
    }

    public func newestPosition() async throws -> Int64 { try await database.read(SQLChangeLog.newest) }

    public func undeleted(_ which: ErasedMessages, after place: Int64, limit: Int) async throws -> [ErasedMessage] {
        let (condition, value): (String, DatabaseValue) =
            switch which {
            case .sentBy(let user): ("sender_id = ?", user.rawValue.databaseValue)
            case .sentBefore(let time): ("sent_at < ?", MessageRows.milliseconds(time).databaseValue)
            }
        return try await database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT seq, conversation_id, id FROM messages WHERE deleted = 0 AND \(condition) AND seq > ? ORDER BY seq LIMIT ?",
                arguments: [value, place, limit]
            ).map { ErasedMessage(place: $0[0], conversationID: ConversationID($0[1] as String), id: MessageID($0[2] as String)) }
        }
    }

    public func events(after position: Int64, upTo top: Int64, for reader: UserID, limit: Int) async throws -> [UserEvent] {
        let epoch = epoch
        return try await database.read { db in try EventRows.events(after: position, for: reader, limit: limit, epoch: epoch, db) }
    }

    public func messages(after position: Int64, upTo top: Int64, in conversationID: ConversationID?, of reader: UserID, limit: Int) async throws
        -> [Message]
    {
        let epoch = epoch
        return try await database.read { db in
            let rows =
                if let conversationID {
                    try Row.fetchAll(
                        db,
                        sql: """
                            SELECT \(MessageRows.columns) FROM messages m \(MessageRows.replyJoin) WHERE m.conversation_id = ? AND m.seq > ? ORDER BY m.seq LIMIT ?
                            """,
                        arguments: [conversationID.rawValue, position, limit])
                } else {
                    try Row.fetchAll(
                        db,
                        sql: """
                            SELECT \(MessageRows.columns) FROM messages m
                            JOIN conversation_members c ON c.conversation_id = m.conversation_id AND c.user_id = ? AND c.state = 'member'
                            \(MessageRows.replyJoin)
                            WHERE m.seq > ? ORDER BY m.seq LIMIT ?
                            """, arguments: [reader.rawValue, position, limit])
                }
            return try rows.map { try MessageRows.message($0, epoch: epoch) }
        }
    }

    public func newestPosition(for reader: UserID) async throws -> Int64? {
        try await database.read { db in try EventRows.newest(for: reader, db) }
    }
}
