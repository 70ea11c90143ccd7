import Synchronization

/// Token buckets by key: each key may spend `burst` attempts at once, and earns one back every
/// `refill`. Keys whose bucket is full again are forgotten, so memory follows recent activity;
/// past `capacity` keys those held back least (most attempts left, the oldest first) are
/// forgotten too, never all at once, so that a flood of new keys cannot give a key that is being
/// held back its attempts again.
public final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    /// Attempts allowed at once.
    public let burst: Int
    /// Time to earn one attempt back.
    public let refill: Duration
    /// Keys kept at most.
    public let capacity: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    /// Creates a limiter of `burst` attempts, one more every `refill`, keeping at most `capacity` keys.
    public init(burst: Int, refill: Duration, capacity: Int = 100_000) {
        self.burst = burst
        self.refill = refill
        self.capacity = max(capacity, 10)
    }

    /// Spends `cost` attempts of `key` (one by default); returns `nil` when allowed, else the
    /// whole seconds until it would be. A cost larger than `burst` is allowed from a full
    /// bucket, which it leaves owing the rest.
    public func spend(_ key: String, cost: Int = 1, now: ContinuousClock.Instant = .now) -> Int? {
        let needed = Double(min(max(cost, 0), burst))
        return buckets.withLock { buckets in
            var bucket = refilled(buckets[key], now: now)
            if buckets[key] == nil, buckets.count >= capacity { prune(&buckets, now: now) }
            guard bucket.tokens >= needed else {
                buckets[key] = bucket
                // Less a nanosecond's worth: the division's rounding error must not add a second.
                return max(1, Int(((needed - bucket.tokens) / perSecond - 1e-9).rounded(.up)))
            }
            bucket.tokens -= Double(max(cost, 0))
            buckets[key] = bucket
            return nil
        }
    }

    /// Gives back an attempt of `key` spent on something that was then not tried (a password
    /// check refused because the server was busy).
    public func refund(_ key: String, now: ContinuousClock.Instant = .now) {
        buckets.withLock { buckets in
            guard buckets[key] != nil else { return }
            var bucket = refilled(buckets[key], now: now)
            bucket.tokens = min(Double(burst), bucket.tokens + 1)
            buckets[key] = bucket
        }
    }

    private var perSecond: Double { 1 / (Double(refill.components.seconds) + Double(refill.components.attoseconds) / 1e18) }

    /// `bucket` (a full new one for `nil`) with what it has earned until `now`.
    private func refilled(_ bucket: Bucket?, now: ContinuousClock.Instant) -> Bucket {
        guard var bucket else { return Bucket(tokens: Double(burst), updated: now) }
        let elapsed = now - bucket.updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        bucket.tokens = min(Double(burst), bucket.tokens + seconds * perSecond)
        bucket.updated = now
        return bucket
    }

    /// Forgets the keys whose buckets are full again; if a tenth of `capacity` is still not
    /// free, those of the rest with the most attempts left (the oldest first) until it is.
    private func prune(_ buckets: inout [String: Bucket], now: ContinuousClock.Instant) {
        let current = buckets.mapValues { refilled($0, now: now) }.filter { $0.value.tokens < Double(burst) }
        let room = capacity - capacity / 10
        buckets = current
        guard current.count > room else { return }
        let leastHeld = current.sorted { a, b in
            a.value.tokens != b.value.tokens ? a.value.tokens > b.value.tokens : a.value.updated < b.value.updated
        }
        leastHeld.prefix(current.count - room).forEach { buckets[$0.key] = nil }
    }
}
