import Synchronization

/// How an index keeps up with its store, on SQLite and PostgreSQL alike: `bringUpToDate()`
/// indexes what is left, a batch at a time, and from its first call on, the follower does the
/// same after commits. At a commit it waits `gather` for more, then indexes them all in one
/// round, so a burst of sends costs one index transaction, not one each (a search does not wait
/// for it: it indexes what is left first).
final class IndexFollower: Sendable {
    /// How long commits gather before a round.
    static let gather: Duration = .milliseconds(250)

    private let commits: @Sendable () -> AsyncStream<Void>
    private let catchUp: @Sendable () async throws -> Bool
    private let follower = Mutex<Task<Void, Never>?>(nil)

    /// A follower of the commits `commits` ticks for (a stream that keeps one tick pending, so
    /// commits during a round make one more round, not one each), indexing with `catchUp`: one
    /// batch, true when none was left.
    init(commits: @escaping @Sendable () -> AsyncStream<Void>, catchUp: @escaping @Sendable () async throws -> Bool) {
        self.commits = commits
        self.catchUp = catchUp
    }

    deinit { follower.withLock { $0?.cancel() } }

    /// Indexes what is left, and follows commits from now on. A failed round of the follower
    /// (the store busy or away) is tried again at the next tick.
    func bringUpToDate() async throws {
        follower.withLock { task in
            guard task == nil else { return }
            let (ticks, catchUp) = (commits(), catchUp)
            task = Task {
                var iterator = ticks.makeAsyncIterator()
                while await iterator.next() != nil, !Task.isCancelled {
                    try? await Task.sleep(for: Self.gather)
                    guard !Task.isCancelled else { return }
                    try? await Self.drain(catchUp)
                }
            }
        }
        try await Self.drain(catchUp)
    }

    private static func drain(_ catchUp: @Sendable () async throws -> Bool) async throws {
        while try await !catchUp() {}
    }
}
