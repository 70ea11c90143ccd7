import Chat
import Kernel
import PostgresNIO
import PostgresStore

/// The messages of a PostgreSQL database, for the instance's `MessageWriter`: a batch is one
/// call of `messageai_send` (one round trip, one transaction, committed with
/// `synchronous_commit` on before it returns). There is no quick way on the caller's thread.
public struct PostgresMessageStore: MessageStore {
    private let database: PGDatabase
    private let epoch: String

    /// The messages of `database`, whose epoch is `epoch` (`PostgresChatSchema.epoch`).
    public init(database: PGDatabase, epoch: String) {
        self.database = database
        self.epoch = epoch
    }

    public func insertNow(_ sends: [MessageWriter.Send]) throws -> [MessageWriter.Stored]? { nil }

    public func insert(_ sends: [MessageWriter.Send]) async throws -> [MessageWriter.Stored] {
        let rows = try await database.query("""
            SELECT ord, seq, is_new, sender_id, text, sent_at FROM messageai_send(
                \(sends.map(\.id.rawValue))::text[], \(sends.map(\.conversationID.rawValue))::text[], \(sends.map(\.sender.rawValue))::text[],
                \(sends.map(\.text))::text[], \(sends.map { Int64($0.sentAt) })::bigint[])
            """)
        var stored: [Int: (seq: Int64, isNew: Bool, sender: String, text: String, sentAt: Int64)] = [:]
        for row in rows {
            let (ord, seq, isNew, sender, text, sentAt) = try row.decode((Int64, Int64, Bool, String, String, Int64).self)
            stored[Int(ord) - 1] = (seq, isNew, sender, text, sentAt)
        }
        return sends.enumerated().map { index, send in
            guard let row = stored[index] else { return .failure(AppError(.internal, "the database did not store message '\(send.id.rawValue)'")) }
            let message = Message(id: send.id, conversationID: send.conversationID, senderID: UserID(row.sender), text: row.text,
                                  sentAt: MessageRows.date(milliseconds: Int(row.sentAt)), cursor: EventCursor(epoch: epoch, position: row.seq))
            if row.isNew { return .success((message, true)) }
            return Result { (try ChatRules.resent(message, conversationID: send.conversationID, sender: send.sender, text: send.text), false) }
        }
    }

    public func notifyCommitted() { database.notifyLocalChange() }

    public func change(_ messageID: MessageID, in conversationID: ConversationID, as kind: UserEvent.MessageChange,
                       _ rule: @escaping @Sendable (Message) throws -> Message?) async throws -> Message {
        let epoch = epoch
        return try await database.write { transaction in
            let rows = try await transaction.query("""
                SELECT \(unescaped: PostgresChatSchema.columns) FROM messages m WHERE m.conversation_id = \(conversationID.rawValue) AND m.id = \(messageID.rawValue)
                FOR UPDATE
                """)
            guard let row = rows.first else { throw ChatRules.noMessage(messageID, in: conversationID) }
            let current = try PostgresChatSchema.message(row, epoch: epoch)
            guard let changed = try rule(current) else { return current }
            try await transaction.query("""
                UPDATE messages SET text = \(changed.text), version = \(Int32(changed.version)),
                    edited_at = \(changed.editedAt.map { Int64(MessageRows.milliseconds($0)) }), deleted = \(changed.deleted),
                    reactions = \(try MessageRows.reactionsText(changed.reactions))
                WHERE conversation_id = \(conversationID.rawValue) AND id = \(messageID.rawValue)
                """)
            let seq = try await PostgresChangeLog.next(count: 1, transaction)
            try await transaction.query("""
                INSERT INTO message_changes (seq, kind, conversation_id, message_id)
                VALUES (\(seq), \(kind.rawValue), \(conversationID.rawValue), \(messageID.rawValue))
                """)
            try await PostgresChangeLog.announce(seq, transaction)
            return changed
        }
    }
}
