import Chat
import Foundation
import Kernel
import PostgresNIO
import PostgresStore

/// Chat's history, catch-up, read markers and receipts in a PostgreSQL database, as
/// `StoredChatService` reads and writes them. Catch-up reads stop at the position the caller
/// read as the newest first (`upTo`): positions may become visible out of order here (ADR 21).
public struct PostgresChatHistoryStore: ChatHistoryStore {
    private let database: PGDatabase
    public let epoch: String

    /// The store of an open database whose epoch is `epoch` (`PostgresChatSchema.epoch`).
    public init(database: PGDatabase, epoch: String) {
        self.database = database
        self.epoch = epoch
    }

    public func page(of conversationID: ConversationID, below position: Int64, limit: Int) async throws -> MessagePage {
        let rows = try await database.query(PostgresChatStatements.page(conversationID, below: position, limit: limit))
        let oldest = try rows.last?.makeRandomAccess()[MessageRows.count].decode(Int64.self)
        return MessagePage(messages: try rows.reversed().map { try PostgresChatSchema.message($0, epoch: epoch) }, hasOlder: (oldest ?? 1) > 1)
    }

    public func position(of messageID: MessageID, in conversationID: ConversationID) async throws -> Int64? {
        try await database.query(PostgresChatStatements.position(of: messageID, in: conversationID)).first?.decode(Int64.self)
    }

    public func message(_ messageID: MessageID, in conversationID: ConversationID) async throws -> Message? {
        try await database.query(
            """
            SELECT \(unescaped: MessageRows.columns) FROM messages m \(unescaped: MessageRows.replyJoin)
            WHERE m.conversation_id = \(conversationID.rawValue) AND m.id = \(messageID.rawValue)
            """
        ).first.map { try PostgresChatSchema.message($0, epoch: epoch) }
    }

    public func markRead(
        _ conversationID: ConversationID, by reader: UserID, members: [UserID],
        audience: @escaping @Sendable (_ keepingPrivate: Set<UserID>) -> [UserID]
    ) async throws {
        try await database.write { transaction in
            let rows = try await transaction.query(
                """
                SELECT coalesce((SELECT message_count FROM chat_activity WHERE conversation_id = \(conversationID.rawValue)), 0),
                       coalesce((SELECT read_count FROM chat_reads WHERE user_id = \(reader.rawValue) AND conversation_id = \(conversationID.rawValue)), 0)
                """)
            guard let (count, read) = try rows.first?.decode((Int64, Int64).self), count > read else { return }
            try await transaction.query(
                """
                INSERT INTO chat_reads (user_id, conversation_id, read_count) VALUES (\(reader.rawValue), \(conversationID.rawValue), \(count))
                ON CONFLICT (user_id, conversation_id) DO UPDATE SET read_count = greatest(chat_reads.read_count, excluded.read_count)
                """)
            try await PostgresChangeLog.record(
                .readMarkerMoved(in: conversationID, by: reader),
                audience: audience(try await Self.keepingPrivate(among: members, transaction.query)),
                transaction)
        }
    }

    public func keepingReceiptsPrivate(among members: [UserID]) async throws -> Set<UserID> {
        try await Self.keepingPrivate(among: members, database.query)
    }

    /// Those of `members` who keep their read receipts private, read by `query` (the database's,
    /// or a transaction's).
    private static func keepingPrivate(among members: [UserID], _ query: (PostgresQuery) async throws -> [PostgresRow]) async throws -> Set<UserID> {
        Set(
            try await query("SELECT user_id FROM chat_receipt_privacy WHERE user_id = ANY(\(members.map(\.rawValue)))").map {
                UserID(try $0.decode(String.self))
            })
    }

    public func receipts(in conversationID: ConversationID) async throws -> [ReadReceipt] {
        try await database.query(
            """
            SELECT c.user_id, coalesce(r.read_count, 0), m.id FROM conversation_members c
            LEFT JOIN chat_reads r ON r.conversation_id = c.conversation_id AND r.user_id = c.user_id
            LEFT JOIN messages m ON m.conversation_id = c.conversation_id AND m.position = r.read_count
            WHERE c.conversation_id = \(conversationID.rawValue) AND c.state = 'member' ORDER BY c.user_id
            """
        ).map { row in
            let (user, count, last) = try row.decode((String, Int64, String?).self)
            return ReadReceipt(userID: UserID(user), readCount: Int(count), lastRead: last.map(MessageID.init(rawValue:)))
        }
    }

    public func setReceiptsPrivate(_ isPrivate: Bool, for user: UserID) async throws {
        try await database.write(ordered: false) { transaction in
            _ = try await transaction.query(
                isPrivate
                    ? "INSERT INTO chat_receipt_privacy (user_id) VALUES (\(user.rawValue)) ON CONFLICT DO NOTHING"
                    : "DELETE FROM chat_receipt_privacy WHERE user_id = \(user.rawValue)")
        }
    }

    public func newestPosition() async throws -> Int64 { try await PostgresChangeLog.newest(database) }

    public func undeleted(_ which: ErasedMessages, after place: Int64, limit: Int) async throws -> [ErasedMessage] {
        let rows =
            switch which {
            case .sentBy(let user):
                try await database.query(
                    "SELECT seq, conversation_id, id FROM messages WHERE NOT deleted AND sender_id = \(user.rawValue) AND seq > \(place) ORDER BY seq LIMIT \(limit)"
                )
            case .sentBefore(let time):
                try await database.query(
                    "SELECT seq, conversation_id, id FROM messages WHERE NOT deleted AND sent_at < \(MessageRows.milliseconds(time)) AND seq > \(place) ORDER BY seq LIMIT \(limit)"
                )
            }
        return try rows.map { row in
            let (place, conversation, id) = try row.decode((Int64, String, String).self)
            return ErasedMessage(place: place, conversationID: ConversationID(conversation), id: MessageID(id))
        }
    }

    public func events(after position: Int64, upTo top: Int64, for reader: UserID, limit: Int) async throws -> [UserEvent] {
        try await PostgresEventRows.events(after: position, upTo: top, for: reader, limit: limit, epoch: epoch, database)
    }

    public func messages(after position: Int64, upTo top: Int64, in conversationID: ConversationID?, of reader: UserID, limit: Int) async throws
        -> [Message]
    {
        let rows =
            if let conversationID {
                try await database.query(
                    """
                    SELECT \(unescaped: MessageRows.columns) FROM messages m \(unescaped: MessageRows.replyJoin)
                    WHERE m.conversation_id = \(conversationID.rawValue) AND m.seq > \(position) AND m.seq <= \(top) ORDER BY m.seq LIMIT \(limit)
                    """)
            } else {
                try await database.query(
                    """
                    SELECT \(unescaped: MessageRows.columns) FROM messages m
                    JOIN conversation_members c ON c.conversation_id = m.conversation_id AND c.user_id = \(reader.rawValue) AND c.state = 'member'
                    \(unescaped: MessageRows.replyJoin)
                    WHERE m.seq > \(position) AND m.seq <= \(top) ORDER BY m.seq LIMIT \(limit)
                    """)
            }
        return try rows.map { try PostgresChatSchema.message($0, epoch: epoch) }
    }

    public func newestPosition(for reader: UserID) async throws -> Int64? {
        try await database.query(
            """
            SELECT greatest(
                (SELECT max(a.last_seq) FROM conversation_members c JOIN chat_activity a ON a.conversation_id = c.conversation_id
                 WHERE c.user_id = \(reader.rawValue) AND c.state = 'member'),
                (SELECT max(seq) FROM store_audiences WHERE user_id = \(reader.rawValue)),
                (SELECT max(x.seq) FROM conversation_members c JOIN message_changes x ON x.conversation_id = c.conversation_id
                 WHERE c.user_id = \(reader.rawValue) AND c.state = 'member'))
            """
        ).first?.decode(Int64?.self) ?? nil
    }
}
