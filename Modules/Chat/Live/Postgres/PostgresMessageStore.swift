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
        // A reply to no message of its conversation is refused before the batch, so it takes no number.
        let replies = try await answered(by: sends)
        let accepted = sends.indices.filter { index in sends[index].answered.map { replies[$0] != nil } ?? true }
        let batch = accepted.map { sends[$0] }
        var stored: [Int: (seq: Int64, isNew: Bool, sender: String, text: String, sentAt: Int64, mentions: [UserID])] = [:]
        var files: [Int: [Attachment]] = [:]
        if !batch.isEmpty {
            let rows = try await sendQuery(batch, files: &files)
            for row in rows {
                let (ord, seq, isNew, sender, text, sentAt, mentions) = try row.decode((Int64, Int64, Bool, String, String, Int64, String?).self)
                stored[accepted[Int(ord) - 1]] = (seq, isNew, sender, text, sentAt, try MessageRows.people(mentions))
            }
        }
        return sends.enumerated().map { index, send in
            if let replyTo = send.replyTo, send.answered.flatMap({ replies[$0] }) == nil {
                return .failure(ChatRules.noMessage(replyTo, in: send.conversationID))
            }
            guard let row = stored[index] else { return .failure(AppError(.internal, "the database did not store message '\(send.id.rawValue)'")) }
            let message = Message(
                id: send.id, conversationID: send.conversationID, senderID: UserID(row.sender), text: row.text,
                sentAt: MessageRows.date(milliseconds: Int(row.sentAt)), cursor: EventCursor(epoch: epoch, position: row.seq),
                replyTo: send.answered.flatMap { replies[$0] }, mentions: row.mentions,
                attachments: row.isNew ? send.attachments : files[accepted.firstIndex(of: index) ?? -1] ?? [])
            if row.isNew { return .success((message, true)) }
            return Result {
                (
                    try ChatRules.resent(
                        message, conversationID: send.conversationID, sender: send.sender, text: send.text, attachments: send.attachments), false
                )
            }
        }
    }

    /// Calls `messageai_send` for `batch`. When a send carries files, they are set on the new
    /// messages in the same transaction, and `files` gets what the messages of the batch already
    /// stored carry (by place in `batch`), for a retry to be compared.
    private func sendQuery(_ batch: [MessageWriter.Send], files: inout [Int: [Attachment]]) async throws -> [PostgresRow] {
        let query = try Self.sendQuery(batch)
        guard batch.contains(where: { !$0.attachments.isEmpty }) else { return try await database.query(query) }
        let all = try batch.map { try MessageRows.attachmentsText($0.attachments) ?? "" }
        let (rows, stored) = try await database.write(ordered: false) { transaction in
            let rows = try await transaction.query(query)
            let new = Set(
                try rows.compactMap { row in
                    let (ord, _, isNew, _, _, _, _) = try row.decode((Int64, Int64, Bool, String, String, Int64, String?).self)
                    return isNew ? Int(ord) - 1 : nil
                })
            let lists = all.indices.map { new.contains($0) ? all[$0] : "" }
            let stored = try await transaction.query(
                """
                SELECT a.ord, m.attachments FROM unnest(\(batch.map(\.id.rawValue))::text[], \(batch.map(\.conversationID.rawValue))::text[])
                    WITH ORDINALITY AS a(id, conversation_id, ord)
                JOIN messages m ON m.conversation_id = a.conversation_id AND m.id = a.id WHERE m.attachments IS NOT NULL
                """)
            try await transaction.query(
                """
                UPDATE messages m SET attachments = a.list
                FROM unnest(\(batch.map(\.id.rawValue))::text[], \(batch.map(\.conversationID.rawValue))::text[], \(lists)::text[])
                    AS a(id, conversation_id, list)
                WHERE m.conversation_id = a.conversation_id AND m.id = a.id AND a.list <> ''
                """)
            return (rows, stored)
        }
        for row in stored {
            let (ord, list) = try row.decode((Int64, String).self)
            files[Int(ord) - 1] = try MessageRows.attachments(list)
        }
        return rows
    }

    private static func sendQuery(_ batch: [MessageWriter.Send]) throws -> PostgresQuery {
        """
            SELECT ord, seq, is_new, sender_id, text, sent_at, mentions FROM messageai_send(
                \(batch.map(\.id.rawValue))::text[], \(batch.map(\.conversationID.rawValue))::text[], \(batch.map(\.sender.rawValue))::text[],
                \(batch.map(\.text))::text[], \(batch.map { Int64($0.sentAt) })::bigint[], \(batch.map { $0.replyTo?.rawValue ?? "" })::text[],
                \(try batch.map { try MessageRows.peopleText($0.mentions) ?? "" })::text[])
        """
    }

    /// The messages `sends` answer, as they are now, by key (one round trip, only when some send
    /// answers one); one its conversation does not have is missing.
    private func answered(by sends: [MessageWriter.Send]) async throws -> [MessageWriter.Key: Message.Reply] {
        let asked = sends.compactMap(\.answered)
        guard !asked.isEmpty else { return [:] }
        var replies: [MessageWriter.Key: Message.Reply] = [:]
        for row in try await database.query(
            """
            SELECT m.conversation_id, m.id, m.text, m.deleted FROM unnest(\(asked.map(\.conversationID.rawValue))::text[], \(asked.map(\.id.rawValue))::text[])
                AS a(conversation_id, id) JOIN messages m ON m.conversation_id = a.conversation_id AND m.id = a.id
            """)
        {
            let (conversation, id, text, deleted) = try row.decode((String, String, String, Bool).self)
            replies[MessageWriter.Key(conversationID: ConversationID(conversation), id: MessageID(id))] = Message.Reply(
                id: MessageID(id), text: text, deleted: deleted)
        }
        return replies
    }

    public func notifyCommitted() { database.notifyLocalChange() }

    public func takingTurns<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T { try await database.takingTurns(work) }

    /// Each change is one statement of its own, which stores it only if the message is still
    /// the row version read (its `xmin`), numbers it and commits: the store's sequence row, which
    /// every send waits for, is held inside the database alone, never across a round trip to a
    /// busy server (ADR 21's amendment). Changes of one message take turns on an instance, so
    /// only another instance's change can come between the read and the write: then the message
    /// is read again, after a random pause, up to `changeAttempts` times.
    /// - Throws: `.unavailable` when the message changed under every attempt.
    public func change(
        _ messageID: MessageID, in conversationID: ConversationID, as kind: UserEvent.MessageChange,
        _ rule: @escaping @Sendable (Message) throws -> Message?
    ) async throws -> Message {
        for _ in 0..<Self.changeAttempts {
            let rows = try await database.query(
                """
                SELECT \(unescaped: MessageRows.columns), m.xmin::text FROM messages m \(unescaped: MessageRows.replyJoin)
                WHERE m.conversation_id = \(conversationID.rawValue) AND m.id = \(messageID.rawValue)
                """)
            guard let row = rows.first else { throw ChatRules.noMessage(messageID, in: conversationID) }
            let current = try PostgresChatSchema.message(row, epoch: epoch)
            let version = try row.makeRandomAccess()[MessageRows.count].decode(String.self)
            guard let changed = try rule(current) else { return current }
            let stored = try await database.query(
                """
                WITH changed AS (
                    UPDATE messages SET text = \(changed.text), version = \(Int32(changed.version)),
                        edited_at = \(changed.editedAt.map { Int64(MessageRows.milliseconds($0)) }), deleted = \(changed.deleted),
                        reactions = \(MessageRows.reactionsText(changed.reactions)), attachments = \(try MessageRows.attachmentsText(changed.attachments))
                    WHERE conversation_id = \(conversationID.rawValue) AND id = \(messageID.rawValue) AND xmin::text = \(version) RETURNING 1
                ), \(unescaped: PostgresChangeLog.numberingOne(after: "changed")), recorded AS (
                    INSERT INTO message_changes (seq, kind, conversation_id, message_id)
                    SELECT seq, \(kind.rawValue), \(conversationID.rawValue), \(messageID.rawValue) FROM numbered RETURNING seq
                )
                \(unescaped: PostgresChangeLog.announcing("recorded"))
                """)
            guard stored.isEmpty else {
                database.notifyLocalChange()
                return changed
            }
            // Another instance changed it meanwhile: a random pause, so that two instances
            // changing one message do not keep meeting in step.
            try await Task.sleep(for: .microseconds(Int.random(in: 100...2_000)))
        }
        throw AppError(.unavailable, "message \(AppError.quoting(messageID.rawValue)) is changing too fast; try again")
    }

    /// How many times a change reads the message again when another instance changed it meanwhile.
    static let changeAttempts = 20
}
