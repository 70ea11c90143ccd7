import Chat
import GRDB
import Kernel
import SQLStore

/// The messages of the SQLite file, for the process's `MessageWriter`: a batch is one IMMEDIATE
/// transaction, tried at once on the caller's thread when the file is free.
public struct SQLMessageStore: MessageStore {
    private typealias Send = MessageWriter.Send
    private typealias Stored = MessageWriter.Stored
    private typealias Key = MessageWriter.Key

    private let database: SQLDatabase
    private let epoch: String

    /// The messages of `database`, whose epoch is `epoch` (`ChatSchema.epoch`).
    public init(database: SQLDatabase, epoch: String) {
        self.database = database
        self.epoch = epoch
    }

    public func insertNow(_ sends: [MessageWriter.Send]) throws -> [MessageWriter.Stored]? {
        try database.writeNow(notifying: false) { db in try Self.insertAll(sends, epoch: epoch, db) }
    }

    public func insert(_ sends: [MessageWriter.Send]) async throws -> [MessageWriter.Stored] {
        let epoch = epoch
        return try await database.write(notifying: false) { db in try Self.insertAll(sends, epoch: epoch, db) }
    }

    public func notifyCommitted() { database.changes.notifyLocalChange() }

    public func takingTurns<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T { try await database.takingTurns(work) }

    public func change(
        _ messageID: MessageID, in conversationID: ConversationID, as kind: UserEvent.MessageChange,
        _ rule: @escaping @Sendable (Message) throws -> Message?
    ) async throws -> Message {
        let epoch = epoch
        return try await database.write { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: ChatStatements.message), arguments: [conversationID.rawValue, messageID.rawValue])
            else {
                throw ChatRules.noMessage(messageID, in: conversationID)
            }
            guard let changed = try rule(try MessageRows.message(row, epoch: epoch)) else { return try MessageRows.message(row, epoch: epoch) }
            try db.cachedStatement(
                sql: """
                    UPDATE messages SET text = ?, version = ?, edited_at = ?, deleted = ?, reactions = ?, attachments = ?
                    WHERE conversation_id = ? AND id = ?
                    """
            ).execute(arguments: [
                changed.text, changed.version, changed.editedAt.map(MessageRows.milliseconds), changed.deleted,
                MessageRows.reactionsText(changed.reactions), try MessageRows.attachmentsText(changed.attachments), conversationID.rawValue,
                messageID.rawValue,
            ])
            try db.cachedStatement(sql: "INSERT INTO message_changes (seq, kind, conversation_id, message_id) VALUES (?, ?, ?, ?)")
                .execute(arguments: [try SQLChangeLog.next(db), kind.rawValue, conversationID.rawValue, messageID.rawValue])
            return changed
        }
    }

    /// Each of `sends` stored in the open transaction. A send refused for what it is (its id
    /// taken by another message, or a reply to no message of its conversation) is refused before
    /// it writes anything or takes a number, so it needs no savepoint of its own and leaves no gap
    /// in the store's order; any other failure fails the transaction. The ids already stored are
    /// looked up, and the new messages' numbers taken, once for the batch.
    private static func insertAll(_ sends: [Send], epoch: String, _ db: Database) throws -> [Stored] {
        var stored = try storedMessages(of: sends, epoch: epoch, db)
        let replies = try answered(by: sends.filter { stored[$0.key] == nil }, db)
        let newCount = Set(sends.filter { send in send.answered.map { replies[$0] != nil } ?? true }.map(\.key)).subtracting(stored.keys).count
        var seq = newCount > 0 ? try SQLChangeLog.next(count: newCount, db) : 0
        return try sends.map { send in
            if let existing = stored[send.key] {
                return Result {
                    (
                        try ChatRules.resent(
                            existing, conversationID: send.conversationID, sender: send.sender, text: send.text, attachments: send.attachments), false
                    )
                }
            }
            let reply = send.answered.flatMap { replies[$0] }
            if let replyTo = send.replyTo, reply == nil { return .failure(ChatRules.noMessage(replyTo, in: send.conversationID)) }
            let message = try insert(send, seq: seq, epoch: epoch, db).replying(to: reply)
            stored[send.key] = message
            seq += 1
            return .success((message, true))
        }
    }

    /// The messages `sends` answer, as they are now, by key; one a send answers that its
    /// conversation does not have is missing.
    private static func answered(by sends: [Send], _ db: Database) throws -> [Key: Message.Reply] {
        var replies: [Key: Message.Reply] = [:]
        for key in Set(sends.compactMap(\.answered)) {
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT text, deleted FROM messages WHERE conversation_id = ? AND id = ?"),
                    arguments: [key.conversationID.rawValue, key.id.rawValue])
            else { continue }
            replies[key] = Message.Reply(id: key.id, text: try row.decode(atIndex: 0), deleted: try row.decode(atIndex: 1))
        }
        return replies
    }

    /// The messages of `sends` already stored (the same id in the same conversation), by key:
    /// one look-up per conversation of the batch (the ids outer, as `JSONIDs` says: otherwise
    /// SQLite's planner walked every message of the conversation for each send).
    private static func storedMessages(of sends: [Send], epoch: String, _ db: Database) throws -> [Key: Message] {
        var messages: [Key: Message] = [:]
        for (conversationID, ids) in Dictionary(grouping: sends, by: \.conversationID).mapValues({ $0.map(\.id) }) {
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: ChatStatements.storedMessages),
                arguments: [try JSONIDs.encode(ids), conversationID.rawValue])
            while let row = try rows.next() {
                let message = try MessageRows.message(row, epoch: epoch)
                messages[Key(conversationID: message.conversationID, id: message.id)] = message
            }
        }
        return messages
    }

    /// Stores `send` as message number `seq` in the open transaction.
    private static func insert(_ send: Send, seq: Int64, epoch: String, _ db: Database) throws -> Message {
        let conversation = send.conversationID.rawValue
        let position =
            (try Int.fetchOne(
                db.cachedStatement(sql: "SELECT message_count FROM chat_activity WHERE conversation_id = ?"),
                arguments: [conversation]) ?? 0) + 1
        try db.cachedStatement(
            sql: """
                INSERT INTO messages (seq, id, conversation_id, position, sender_id, text, sent_at, reply_to, mentions, attachments)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            seq, send.id.rawValue, conversation, position, send.sender.rawValue, send.text, send.sentAt, send.replyTo?.rawValue,
            try MessageRows.peopleText(send.mentions), try MessageRows.attachmentsText(send.attachments),
        ])
        for person in send.mentions {
            try db.cachedStatement(sql: "INSERT INTO message_mentions (user_id, seq, conversation_id, position) VALUES (?, ?, ?, ?)")
                .execute(arguments: [person.rawValue, seq, conversation, position])
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO chat_activity (conversation_id, message_count, last_seq) VALUES (?, ?, ?)
                ON CONFLICT (conversation_id) DO UPDATE SET message_count = excluded.message_count, last_seq = excluded.last_seq
                """
        ).execute(arguments: [conversation, position, seq])
        try ChatReads.set(position, by: send.sender, in: send.conversationID, db)
        return Message(
            id: send.id, conversationID: send.conversationID, senderID: send.sender, text: send.text,
            sentAt: MessageRows.date(milliseconds: send.sentAt), cursor: EventCursor(epoch: epoch, position: seq), mentions: send.mentions,
            attachments: send.attachments)
    }
}
