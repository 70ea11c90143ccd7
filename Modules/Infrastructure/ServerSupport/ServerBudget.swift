import Kernel

/// The server's `UsageBudget`: a token bucket per person and action, so that one person's
/// sends, new conversations, renames and look-ups cannot take the server from the others.
/// Past one, the action is refused: 429 with `Retry-After`, exit 75 in the client.
public struct ServerBudget: Sendable {
    /// How fast each action's budget comes back; each may also be spent at once up to a
    /// share of that (`init`).
    public struct Limits: Sendable {
        /// Messages per minute (a tenth of it at once).
        public var messagesPerMinute = 300
        /// Mebibytes of text times recipients per minute, all of it at once: 16 is a 16 KB
        /// message to a group of 1,000 once a minute.
        public var fanOutMegabytesPerMinute = 16
        /// New conversations per hour (a sixth of it at once).
        public var conversationsPerHour = 120
        /// Changes of display name per hour (a twelfth of it at once).
        public var renamesPerHour = 60
        /// Look-ups per minute (half of it at once): people, settings, searches and reads
        /// (`UsageBudget.Action.lookup`).
        public var lookupsPerMinute = 120
        /// Mebibytes of files uploaded per hour, all of it at once: a person's quota (1 GiB by
        /// default) in an hour at most.
        public var uploadMegabytesPerHour = 1_024

        /// The product's limits.
        public init() {}
    }

    private let limiters: [UsageBudget.Action: RateLimiter]

    /// A budget of `limits`.
    public init(_ limits: Limits) {
        func limiter(_ count: Int, per period: Duration, atOnce share: Int) -> RateLimiter {
            RateLimiter(burst: max(1, count / share), refill: period / max(1, count))
        }
        let fanOutBytes = limits.fanOutMegabytesPerMinute << 20
        limiters = [
            .message: limiter(limits.messagesPerMinute, per: .seconds(60), atOnce: 10),
            .fanOutBytes: limiter(fanOutBytes, per: .seconds(60), atOnce: 1),
            .conversation: limiter(limits.conversationsPerHour, per: .seconds(3_600), atOnce: 6),
            .rename: limiter(limits.renamesPerHour, per: .seconds(3_600), atOnce: 12),
            .lookup: limiter(limits.lookupsPerMinute, per: .seconds(60), atOnce: 2),
            .uploadBytes: limiter(limits.uploadMegabytesPerHour << 20, per: .seconds(3_600), atOnce: 1),
        ]
    }

    /// The budget, for the service graph.
    public var budget: UsageBudget {
        let limiters = limiters
        return UsageBudget { action, user, cost in
            guard let limiter = limiters[action], let wait = limiter.spend(user.rawValue, cost: cost) else { return }
            throw RetryLater(AppError(.rateLimited, Self.refusal(action, wait: wait)), seconds: wait)
        }
    }

    private static func refusal(_ action: UsageBudget.Action, wait: Int) -> String {
        let what =
            switch action {
            case .message: "you are sending messages faster than this server allows"
            case .fanOutBytes: "you are sending more text to more people than this server allows"
            case .conversation: "you are starting or leaving conversations faster than this server allows"
            case .rename: "you are changing your name more often than this server allows"
            case .lookup: "you are looking people up, searching, reading history or changing blocks and privacy faster than this server allows"
            case .uploadBytes: "you are uploading more bytes of files than this server allows"
            }
        return "\(what); try again in \(wait) s"
    }
}
