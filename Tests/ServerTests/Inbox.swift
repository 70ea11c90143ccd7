/// Items that arrive one by one (lines a process printed, messages of a stream), handed out in
/// order to one reader that waits a bounded time for each.
actor Inbox<Item: Sendable> {
    private var buffered: [Item] = []
    private var ended = false
    private var waiter: (id: Int, continuation: CheckedContinuation<Item?, Never>)?
    private var waits = 0

    /// An inbox filled from `stream` until it ends.
    static func collecting(_ stream: AsyncStream<Item>) -> Inbox {
        let inbox = Inbox()
        Task {
            for await item in stream { await inbox.push([item]) }
            await inbox.finish()
        }
        return inbox
    }

    func push(_ items: [Item]) {
        buffered += items
        hand()
    }

    func finish() {
        ended = true
        hand()
    }

    /// The next item, or `nil` once the source has ended or `limit` has passed.
    func next(within limit: Duration) async -> Item? {
        if !buffered.isEmpty { return buffered.removeFirst() }
        if ended { return nil }
        waits += 1
        let id = waits
        let timer = Task {
            try await Task.sleep(for: limit)
            self.expire(id)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { waiter = (id, $0) }
    }

    private func hand() {
        guard let waiter, !buffered.isEmpty || ended else { return }
        self.waiter = nil
        waiter.continuation.resume(returning: buffered.isEmpty ? nil : buffered.removeFirst())
    }

    private func expire(_ id: Int) {
        guard let waiter, waiter.id == id else { return }
        self.waiter = nil
        waiter.continuation.resume(returning: nil)
    }
}
