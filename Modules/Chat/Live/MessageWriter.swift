import Chat
import Foundation
import Kernel
import Metrics
import Synchronization

/// Where a `MessageWriter` stores its batches: SQLite's file or PostgreSQL's database.
public protocol MessageStore: Sendable {
    /// Stores `sends` in one transaction on the calling thread, trying once; `nil`, with nothing
    /// written, when that would wait (another writer holds the store, or the store has no such way).
    func insertNow(_ sends: [MessageWriter.Send]) throws -> [MessageWriter.Stored]?
    /// Stores `sends` in one transaction, waiting for the store as long as it takes.
    func insert(_ sends: [MessageWriter.Send]) async throws -> [MessageWriter.Stored]
    /// Tells the store's readers of a commit once its messages have been handed out.
    func notifyCommitted()
    /// Applies `rule` (`ChatRules.edit`, `.delete` or `.react`) to the stored message `messageID`
    /// in one transaction and stores what it gives as the message's new state, with the change's
    /// `kind` event (the store's next position); returns the message as it is now. Constant work however old
    /// the message is: one row by its key, one event.
    /// - Throws: `.notFound` when the conversation has no such message; what `rule` throws.
    func change(
        _ messageID: MessageID, in conversationID: ConversationID, as kind: UserEvent.MessageChange,
        _ rule: @escaping @Sendable (Message) throws -> Message?
    ) async throws -> Message
    /// Runs `work` after the store's other writes whose size a caller controls (ADR 29's turns).
    func takingTurns<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T
}

/// Stores the process's sends in batches ("group commit"): sends that arrive while a batch is
/// being written wait and go together in the next transaction, and each send returns only once
/// the transaction holding it has committed. Under load one commit carries many messages; alone,
/// a send is a batch of one, written on the sender's own thread (`store`). One per database,
/// shared by every caller's chat service.
public final class MessageWriter: Sendable {
    /// A message to store, checked already.
    public struct Send: Sendable {
        public let id: MessageID
        public let text: String
        public let conversationID: ConversationID
        public let sender: UserID
        /// Milliseconds since 1970.
        public let sentAt: Int
        /// The conversation's members, who get the message live.
        public let members: [UserID]
        /// The message of the conversation it answers, if any.
        public let replyTo: MessageID?
        /// The members it mentions (`MentionFinder`).
        public let mentions: [UserID]
        /// The files it carries (`AttachedFiles.uploaded`).
        public let attachments: [Attachment]

        /// The key of the message it stores.
        var key: Key { Key(conversationID: conversationID, id: id) }
        /// The key of the message it answers, if any.
        var answered: Key? { replyTo.map { Key(conversationID: conversationID, id: $0) } }
    }

    /// A message's key in a store: its id is the sender's within its conversation.
    struct Key: Hashable {
        let conversationID: ConversationID
        let id: MessageID
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
    public typealias Stored = Result<(message: Message, isNew: Bool), any Error>

    private struct State {
        var waiting: [Waiting] = []
        var writing = false
        /// How many sends the last transaction held: more than one means sends are arriving
        /// faster than one commit, and the next is better left to the drain task.
        var lastBatch = 1
        /// When the last send came.
        var lastSend: ContinuousClock.Instant?
    }

    private let store: any MessageStore
    private let feed: StoreEventFeed
    private let state = Mutex(State())
    /// Most sends in one transaction.
    private let batchLimit: Int
    /// Messages stored new, for the process's metrics (nothing unless it has a metrics backend).
    private let storedCount = Counter(label: "messageai_sends_stored_total")
    /// Sends per committed transaction.
    private let batchSizes = Recorder(label: "messageai_commit_batch_size")
    /// How long each committed transaction took, from its start to its commit.
    private let commitTimes = Metrics.Timer(label: "messageai_commit_seconds")

    /// What else keeps messages' words (Search's index on SQLite), told after each change commits
    /// and awaited before it is answered, so the words an edit or a deletion removed are gone from
    /// there too (what keeps them decides which changes removed words).
    private let forget: @Sendable () async -> Void

    /// Creates the writer of `store`; what it stores goes live through `feed` at once, and after
    /// each change, `forget` runs.
    public init(store: any MessageStore, feed: StoreEventFeed, batchLimit: Int = 512, forget: @escaping @Sendable () async -> Void = {}) {
        self.store = store
        self.feed = feed
        self.batchLimit = batchLimit
        self.forget = forget
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

    /// Changes a stored message, as `MessageStore.change` does, in a transaction of its own:
    /// edits and deletions are rare beside sends and need no batching. Changes take turns (ADR
    /// 29): each rewrites the message's reactions, which grow with how many react, so a storm
    /// of them keeps one at most ahead of everyone's sends.
    func change(
        _ messageID: MessageID, in conversationID: ConversationID, as kind: UserEvent.MessageChange,
        _ rule: @escaping @Sendable (Message) throws -> Message?
    ) async throws -> Message {
        let store = store
        let message = try await store.takingTurns { try await store.change(messageID, in: conversationID, as: kind, rule) }
        await forget()
        return message
    }

    /// Waits, before a step of background work (a retention pass's next deletion), until no send
    /// has come for `quiet`, or `longest` has passed: under steady sends such work goes one step
    /// per `longest`, so it takes the writer from sends a step's time in that much at most.
    /// Cancelled, it stops waiting.
    func afterSends(quiet: Duration = .milliseconds(5), longest: Duration = .milliseconds(200)) async {
        let deadline = ContinuousClock.now + longest
        while ContinuousClock.now < deadline, let last = state.withLock({ $0.lastSend }), ContinuousClock.now - last < quiet {
            guard (try? await Task.sleep(for: quiet)) != nil else { return }
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
            state.lastSend = .now
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
        do {
            let started = ContinuousClock.now
            let results = try await store.insert(batch.map(\.send))
            measure(batch, since: started)
            finish(batch, .success(results))
        } catch {
            guard batch.count == 1 else { return false }
            finish(batch, .failure(error))
        }
        return true
    }

    /// The next sends to write together; `nil` (and the writer idle) when none waits.
    private func nextBatch() -> [Waiting]? {
        state.withLock { state in
            let batch = Self.batch(of: state.waiting.prefix(batchLimit))
            state.waiting.removeFirst(batch.count)
            if batch.isEmpty { state.writing = false } else { state.lastBatch = batch.count }
            return batch.isEmpty ? nil : batch
        }
    }

    /// The first of `waiting` that go in one transaction: up to the first that answers one of
    /// them. A store looks up what a batch's replies answer before it writes any of the batch,
    /// so a reply sent right behind the message it answers (on one socket, in one burst) goes in
    /// the next transaction rather than be refused as answering nothing.
    private static func batch(of waiting: ArraySlice<Waiting>) -> [Waiting] {
        // Most batches hold no reply: they are taken whole, without hashing every send's key.
        guard waiting.contains(where: { $0.send.replyTo != nil }) else { return Array(waiting) }
        var keys = Set<Key>()
        var batch: [Waiting] = []
        for next in waiting {
            if let answered = next.send.answered, keys.contains(answered) { break }
            keys.insert(next.send.key)
            batch.append(next)
        }
        return batch
    }

    /// Writes `batch` on this thread; false, with nothing written or answered, when the
    /// database is busy (another process writes) or a transaction of several sends failed: the
    /// batch goes the retrying way.
    private func write(_ batch: [Waiting]) -> Bool {
        let sends = batch.map(\.send)
        do {
            let started = ContinuousClock.now
            guard let results = try store.insertNow(sends) else { return false }
            measure(batch, since: started)
            finish(batch, .success(results))
        } catch {
            guard batch.count == 1 else { return false }
            finish(batch, .failure(error))
        }
        return true
    }

    /// Reports a transaction of `batch` committed, begun at `started`, to the metrics.
    private func measure(_ batch: [Waiting], since started: ContinuousClock.Instant) {
        commitTimes.record(duration: ContinuousClock.now - started)
        batchSizes.record(batch.count)
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
            let new = zip(batch, results).compactMap { waiting, result -> (message: Message, members: [UserID])? in
                guard case .success(let stored) = result, stored.isNew else { return nil }
                return (stored.message, waiting.send.members)
            }
            storedCount.increment(by: new.count)
            feed.publishCommitted(new)
            store.notifyCommitted()
            for (waiting, result) in zip(batch, results) { waiting.reply(result.map(\.message)) }
        }
    }
}
