import Synchronization

/// Token buckets by key: each key may spend `burst` attempts at once, and earns one back every
/// `refill`. Keys whose bucket is full again are forgotten, so memory follows recent activity.
public final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    /// Attempts allowed at once.
    public let burst: Int
    /// Time to earn one attempt back.
    public let refill: Duration
    private let buckets = Mutex<[String: Bucket]>([:])
    /// Keys kept at most; past it, full buckets are dropped.
    private static let capacity = 100_000

    /// Creates a limiter of `burst` attempts, one more every `refill`.
    public init(burst: Int, refill: Duration) {
        self.burst = burst
        self.refill = refill
    }

    /// Spends one attempt of `key`; returns `nil` when allowed, else the whole seconds until
    /// the next attempt is.
    public func spend(_ key: String, now: ContinuousClock.Instant = .now) -> Int? {
        let perSecond = 1 / (Double(refill.components.seconds) + Double(refill.components.attoseconds) / 1e18)
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: Double(burst), updated: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(Double(burst), bucket.tokens + seconds * perSecond)
            bucket.updated = now
            if buckets.count >= Self.capacity { prune(&buckets, now: now, perSecond: perSecond) }
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return Int(((1 - bucket.tokens) / perSecond).rounded(.up))
            }
            bucket.tokens -= 1
            buckets[key] = bucket
            return nil
        }
    }

    private func prune(_ buckets: inout [String: Bucket], now: ContinuousClock.Instant, perSecond: Double) {
        buckets = buckets.filter { _, bucket in
            let elapsed = now - bucket.updated
            return bucket.tokens + Double(elapsed.components.seconds) * perSecond < Double(burst)
        }
        if buckets.count >= Self.capacity { buckets.removeAll() }
    }
}
