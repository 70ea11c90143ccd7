/// How an index follows its store's commits, on SQLite and PostgreSQL alike: at a commit it
/// waits `gather` for more, then indexes them all in one round, so a burst of sends costs one
/// index transaction, not one each (a search does not wait for it: it indexes what is left first).
enum IndexFollower {
    /// How long commits gather before a round.
    static let gather: Duration = .milliseconds(250)

    /// A task that runs `round` after each commit `commits` ticks for (a stream that keeps one
    /// tick pending, so commits during a round make one more round, not one each). A failed round
    /// (the store busy or away) is tried again at the next tick.
    static func follow(_ commits: AsyncStream<Void>, round: @escaping @Sendable () async throws -> Void) -> Task<Void, Never> {
        Task {
            var ticks = commits.makeAsyncIterator()
            while await ticks.next() != nil, !Task.isCancelled {
                try? await Task.sleep(for: gather)
                guard !Task.isCancelled else { return }
                try? await round()
            }
        }
    }
}
