import Kernel
import Synchronization

/// How many requests of one account the server serves at once: HTTP requests from the moment
/// their session is known (their body still to be read), and the events socket's sends and
/// typing notices while they are passed to the store. One more is refused at once (429 with
/// `Retry-After: 1`), so one person cannot hold many of the server's tasks, connections to the
/// store and memory at once, however many connections they open.
public final class AccountRequests: Sendable {
    /// The product's limit: more than a client's own requests need at once (the REPL makes one
    /// or two), few enough that a person holds a small share of a server's work.
    public static let productLimit = 8
    /// Requests of one account served at once.
    private let limit: Int
    private let serving = Mutex<[UserID: Int]>([:])

    /// At most `limit` requests of one account at once.
    public init(limit: Int) {
        self.limit = limit
    }

    /// Runs `work` as one of `user`'s requests.
    /// - Throws: `RetryLater` when `user` has `limit` requests being served; else what `work` throws.
    public func serving<T>(_ user: UserID, _ work: () async throws -> T) async throws -> T {
        let limit = limit
        let admitted = serving.withLock { serving in
            guard serving[user, default: 0] < limit else { return false }
            serving[user, default: 0] += 1
            return true
        }
        guard admitted else {
            throw RetryLater(AppError(.rateLimited, "this account has \(limit) requests being served already; wait for their answers"), seconds: 1)
        }
        defer {
            serving.withLock { serving in
                let left = serving[user, default: 1] - 1
                serving[user] = left > 0 ? left : nil
            }
        }
        return try await work()
    }
}
