import Synchronization

/// Values looked up recently, each kept for `keptFor` from its look-up: what a burst of sends
/// asks again and again, and what another process may change without this one hearing of it.
/// This process's own changes are forgotten at once (`forget`); a look-up that began before a
/// forgetting is not kept after it.
final class RecentLookups<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entries {
        var kept: [Key: (value: Value, at: ContinuousClock.Instant)] = [:]
        /// How many times any was forgotten.
        var forgotten = 0
    }

    /// Past this many kept, those expired are dropped when another is kept.
    private static var pruneAt: Int { 10_000 }

    private let keptFor: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let entries = Mutex(Entries())

    /// Keeps each value `keptFor`, by the time `now` gives.
    init(keptFor: Duration, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.keptFor = keptFor
        self.now = now
    }

    /// How many times any was forgotten: read before a look-up, handed back to `keep` after it.
    var generation: Int { entries.withLock { $0.forgotten } }

    /// The value kept for `key`, if it is fresh enough.
    func value(for key: Key) -> Value? {
        let instant = now()
        return entries.withLock { entries in
            guard let entry = entries.kept[key], instant - entry.at < keptFor else { return nil }
            return entry.value
        }
    }

    /// Keeps `values`, looked up when the count of forgettings was `generation`, unless something
    /// was forgotten since.
    func keep(_ values: [Key: Value], lookedUpAt generation: Int) {
        let instant = now()
        entries.withLock { entries in
            guard entries.forgotten == generation else { return }
            if entries.kept.count > Self.pruneAt { entries.kept = entries.kept.filter { instant - $0.value.at < keptFor } }
            for (key, value) in values { entries.kept[key] = (value, instant) }
        }
    }

    /// Forgets the values of `keys`: this process changed them.
    func forget(_ keys: some Sequence<Key>) {
        entries.withLock { entries in
            for key in keys { entries.kept[key] = nil }
            entries.forgotten += 1
        }
    }
}
