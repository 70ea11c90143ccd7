import Kernel

/// Messages typed while the server could not be reached: kept (in an `OutboxStore`, so they
/// survive the process), sent in order with their own ids once it can be, so none is stored
/// twice; the server's refusals come back as failed messages with the reason. Passing failures
/// (unreachable, rate-limited, a server error) are tried again later; a session that has ended
/// keeps them for the next sign-in.
public actor Outbox {
    private let store: any OutboxStore
    /// Whose messages this outbox sends: the store may hold other users' of the same profile,
    /// which wait for them to sign in again.
    private let owner: UserID
    private var flusher: Task<Void, Never>?
    private let results = Broadcaster<Message>()
    private var emptied: [CheckedContinuation<Void, Never>] = []

    /// The outbox of `owner` over `store`.
    public init(store: any OutboxStore, owner: UserID) {
        self.store = store
        self.owner = owner
    }

    /// The owner's kept messages, oldest first, as the store has them now (another process of
    /// the profile may have kept or sent some).
    public func messages() throws -> [Message] { try store.load().filter { $0.senderID == owner } }

    /// Whether messages are kept: a new one goes behind them, to keep their order.
    public func isEmpty() -> Bool { (try? messages().isEmpty) ?? true }

    /// Keeps `message` (as `.queued`, sent by the owner) until it is sent.
    public func keep(_ message: Message) throws -> Message {
        let queued = Message(id: message.id, conversationID: message.conversationID, senderID: owner, text: message.text,
                             sentAt: message.sentAt, state: .queued)
        try store.update { kept in kept.filter { $0.id != message.id } + [queued] }
        return queued
    }

    /// What became of kept messages: each as stored, or failed with the server's reason.
    public func outcomes() -> AsyncStream<Message> { results.subscribe() }

    /// Starts sending the kept messages through `send`, unless it runs already; while the server
    /// cannot be reached it tries again after a random wait up to 0.5 s, doubling to 20 s.
    public func flush(through send: @escaping @Sendable (Message) async throws -> Message) {
        guard flusher == nil else { return }
        flusher = Task { await self.sendAll(through: send) }
    }

    /// Waits until nothing is kept, or for `limit`; returns whether nothing is kept.
    public func drained(within limit: Duration) async -> Bool {
        if (try? messages().isEmpty) ?? true { return true }
        let timer = Task {
            try await Task.sleep(for: limit)
            self.wakeWaiters()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { emptied.append($0) }
        return (try? messages().isEmpty) ?? true
    }

    private func sendAll(through send: @Sendable (Message) async throws -> Message) async {
        var failures = 0
        while let next = (try? messages())?.first {
            do {
                results.send(try await send(next))
                remove(next)
                failures = 0
            } catch let error as AppError where [.unavailable, .rateLimited, .internal].contains(error.kind) {
                // For now: try again later.
                failures += 1
                try? await Task.sleep(for: Backoff.delay(afterFailures: failures))
            } catch let error as AppError where error.kind == .notSignedIn {
                // Kept for when this profile signs in again.
                break
            } catch {
                var failed = next
                failed.state = .failed
                failed.failureReason = AppError(error).message
                results.send(failed)
                remove(next)
            }
            if Task.isCancelled { break }
        }
        flusher = nil
        wakeWaiters()
    }

    private func remove(_ message: Message) {
        try? store.update { kept in kept.filter { $0.id != message.id } }
    }

    private func wakeWaiters() {
        let waiting = emptied
        emptied = []
        waiting.forEach { $0.resume() }
    }
}
