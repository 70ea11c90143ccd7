import Chat
import Foundation
import GRDB
import Kernel
import SQLStore
import Synchronization

/// Stores the process's sends in batches ("group commit"): sends that arrive while a batch is
/// being written wait and go together in the next transaction, and each send returns only once
/// the transaction holding it has committed. Under load one commit carries many messages; alone,
/// a send is a batch of one, written on the sender's own thread (`store`). One per database,
/// shared by every caller's `SQLChatService`.
public final class MessageWriter: Sendable {
    /// A message to store, checked already.
    struct Send: Sendable {
        let id: MessageID
        let text: String
        let conversationID: ConversationID
        let sender: UserID
        /// Milliseconds since 1970.
        let sentAt: Int
        /// The conversation's members, who get the message live.
        let members: [UserID]
    }

    /// A send waiting for its transaction, and where its outcome goes.
    private struct Waiting: Sendable {
        let send: Send
        let reply: @Sendable (Result<Message, any Error>) -> Void
    }

    /// The outcomes of sends stored together (`store(_:)` of several), handed over at once
    /// when the last is in.
    private final class Outcomes: Sendable {
        private let collected: Mutex<(outcomes: [Result<Message, any Error>?], missing: Int)>
        private let done: CheckedContinuation<[Result<Message, any Error>], Never>

        init(count: Int, done: CheckedContinuation<[Result<Message, any Error>], Never>) {
            collected = Mutex((Array(repeating: nil, count: count), count))
            self.done = done
        }

        func set(_ index: Int, _ outcome: Result<Message, any Error>) {
            let complete: [Result<Message, any Error>]? = collected.withLock { collected in
                collected.outcomes[index] = outcome
                collected.missing -= 1
                return collected.missing == 0 ? collected.outcomes.compactMap { $0 } : nil
            }
            if let complete { done.resume(returning: complete) }
        }
    }

    /// One send's outcome in a transaction: its message, and whether it was stored just now.
    private typealias Stored = Result<(message: Message, isNew: Bool), any Error>

    private struct State {
        var waiting: [Waiting] = []
        var writing = false
        /// How many sends the last transaction held: more than one means sends are arriving
        /// faster than one commit, and the next is better left to the drain task.
        var lastBatch = 1
    }

    private let database: SQLDatabase
    private let epoch: String
    private let feed: SQLEventFeed
    private let state = Mutex(State())
    /// Most sends in one transaction.
    private let batchLimit: Int

    /// Creates the writer of the database whose epoch is `epoch` (`ChatSchema.epoch`); what
    /// it stores goes live through `feed` at once.
    public init(database: SQLDatabase, epoch: String, feed: SQLEventFeed, batchLimit: Int = 512) {
        self.database = database
        self.epoch = epoch
        self.feed = feed
        self.batchLimit = batchLimit
    }

    /// Stores `send` (or finds it stored: the same id again returns the stored message) and
    /// returns it once committed. When the writer is idle and sends come one at a time, the
    /// send is written at once on its own thread (no hop to another task or to the database's
    /// queue and back: lower latency); otherwise sends wait and go in batches written by a task
    /// of their own on the database's queue, which leaves the caller's threads to the requests
    /// (higher throughput).
    /// - Throws: `.conflict` when the id is taken by another message; the store's errors.
    nonisolated(nonsending) func store(_ send: Send) async throws -> Message {
        try await withCheckedThrowingContinuation { reply in
            enqueue([Waiting(send: send) { reply.resume(with: $0) }])
        }
    }

    /// Stores `sends` in the order given (together, or in successive transactions) and returns
    /// each one's outcome in that order, as `store(_:)` of one would.
    func store(_ sends: [Send]) async -> [Result<Message, any Error>] {
        guard !sends.isEmpty else { return [] }
        return await withCheckedContinuation { done in
            let outcomes = Outcomes(count: sends.count, done: done)
            enqueue(sends.enumerated().map { index, send in Waiting(send: send) { outcomes.set(index, $0) } })
        }
    }

    /// Queues `sends` behind those waiting, then writes them at once on this thread if the
    /// writer was idle and alone, or leaves them to the drain task.
    private func enqueue(_ sends: [Waiting]) {
        let (start, alone) = state.withLock { state in
            state.waiting.append(contentsOf: sends)
            defer { state.writing = true }
            return (!state.writing, state.lastBatch == 1)
        }
        guard start else { return }
        if alone, let batch = nextBatch(), !write(batch) {
            state.withLock { $0.waiting.insert(contentsOf: batch, at: 0) }
        }
        if state.withLock({ state in
            state.writing = !state.waiting.isEmpty
            return state.writing
        }) {
            Task { await self.drain() }
        }
    }

    /// Writes batches until no send waits, retrying while the database is busy.
    private func drain() async {
        while let batch = nextBatch() {
            guard await !commit(batch) else { continue }
            // One of several sends failed the transaction: each again in its own, so that a send
            // the store cannot take fails alone.
            for waiting in batch { _ = await commit([waiting]) }
        }
    }

    /// Writes `batch` in one transaction and answers its sends; false, with nothing answered,
    /// when the transaction of several sends failed.
    private func commit(_ batch: [Waiting]) async -> Bool {
        let (sends, epoch) = (batch.map(\.send), epoch)
        do {
            finish(batch, .success(try await database.write(notifying: false) { db in try Self.insertAll(sends, epoch: epoch, db) }))
        } catch {
            guard batch.count == 1 else { return false }
            finish(batch, .failure(error))
        }
        return true
    }

    /// The next sends to write together; `nil` (and the writer idle) when none waits.
    private func nextBatch() -> [Waiting]? {
        state.withLock { state in
            let batch = Array(state.waiting.prefix(batchLimit))
            state.waiting.removeFirst(batch.count)
            if batch.isEmpty { state.writing = false } else { state.lastBatch = batch.count }
            return batch.isEmpty ? nil : batch
        }
    }

    /// Writes `batch` on this thread; false, with nothing written or answered, when the
    /// database is busy (another process writes) or a transaction of several sends failed: the
    /// batch goes the retrying way.
    private func write(_ batch: [Waiting]) -> Bool {
        let sends = batch.map(\.send)
        do {
            guard let results = try database.writeNow(notifying: false, { db in try Self.insertAll(sends, epoch: epoch, db) }) else { return false }
            finish(batch, .success(results))
        } catch {
            guard batch.count == 1 else { return false }
            finish(batch, .failure(error))
        }
        return true
    }

    /// Hands the batch's new messages to the live feed and answers each send: with its own
    /// result once the transaction committed, with the transaction's error when it did not.
    /// The change tick comes after the hand-out rather than at the commit, so that the feed's
    /// reader, woken by it, does not read again what was just handed out.
    private func finish(_ batch: [Waiting], _ committed: Result<[Stored], any Error>) {
        switch committed {
        case .failure(let error):
            batch.forEach { $0.reply(.failure(error)) }
        case .success(let results):
            feed.publishCommitted(zip(batch, results).compactMap { waiting, result in
                guard case .success(let stored) = result, stored.isNew else { return nil }
                return (stored.message, waiting.send.members)
            })
            database.changes.notifyLocalChange()
            for (waiting, result) in zip(batch, results) { waiting.reply(result.map(\.message)) }
        }
    }

    /// A message's key: its id is the sender's within its conversation.
    private struct Key: Hashable {
        let conversationID: ConversationID
        let id: MessageID
    }

    /// Each of `sends` stored in the open transaction. A send refused for what it is (its id
    /// taken by another message) is refused before it writes anything, so it needs no savepoint
    /// of its own; any other failure fails the transaction. The ids already stored are looked up,
    /// and the new messages' numbers taken, once for the batch.
    private static func insertAll(_ sends: [Send], epoch: String, _ db: Database) throws -> [Stored] {
        var stored = try storedMessages(of: sends, epoch: epoch, db)
        let newCount = Set(sends.map { Key(conversationID: $0.conversationID, id: $0.id) }).subtracting(stored.keys).count
        var seq = newCount > 0 ? try SQLChangeLog.next(count: newCount, db) : 0
        return try sends.map { send in
            let key = Key(conversationID: send.conversationID, id: send.id)
            if let existing = stored[key] {
                return Result { (try ChatRules.resent(existing, conversationID: send.conversationID, sender: send.sender, text: send.text), false) }
            }
            let message = try insert(send, seq: seq, epoch: epoch, db)
            stored[key] = message
            seq += 1
            return .success((message, true))
        }
    }

    /// The messages of `sends` already stored (the same id in the same conversation), by key:
    /// one look-up per conversation of the batch.
    private static func storedMessages(of sends: [Send], epoch: String, _ db: Database) throws -> [Key: Message] {
        var messages: [Key: Message] = [:]
        for (conversationID, ids) in Dictionary(grouping: sends, by: \.conversationID).mapValues({ $0.map(\.id) }) {
            let rows = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT \(MessageRows.columns) FROM json_each(?) ids JOIN messages m ON m.conversation_id = ? AND m.id = ids.value
                """), arguments: [try JSONIDs.encode(ids), conversationID.rawValue])
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
        let position = (try Int.fetchOne(db.cachedStatement(sql: "SELECT message_count FROM chat_activity WHERE conversation_id = ?"),
                                         arguments: [conversation]) ?? 0) + 1
        try db.cachedStatement(sql: "INSERT INTO messages (seq, id, conversation_id, position, sender_id, text, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
            .execute(arguments: [seq, send.id.rawValue, conversation, position, send.sender.rawValue, send.text, send.sentAt])
        try db.cachedStatement(sql: """
            INSERT INTO chat_activity (conversation_id, message_count, last_seq) VALUES (?, ?, ?)
            ON CONFLICT (conversation_id) DO UPDATE SET message_count = excluded.message_count, last_seq = excluded.last_seq
            """).execute(arguments: [conversation, position, seq])
        try ChatReads.set(position, by: send.sender, in: send.conversationID, db)
        return Message(id: send.id, conversationID: send.conversationID, senderID: send.sender, text: send.text,
                       sentAt: MessageRows.date(milliseconds: send.sentAt), cursor: EventCursor(epoch: epoch, position: seq))
    }
}
