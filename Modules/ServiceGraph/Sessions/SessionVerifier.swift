import Auth
import AuthLive
import Kernel
import Synchronization

/// Resolves session tokens to users through the account service, trusting an answer for a
/// short time so that a burst of calls costs one look-up, and no longer, so that a revocation
/// made by another process takes effect here within that time.
final class SessionVerifier: Sendable {
    private struct Verified {
        let userID: UserID
        let at: ContinuousClock.Instant
    }

    /// Verified tokens kept at most; past it the oldest half is dropped.
    private static let capacity = 10_000

    private let accounts: any AccountService
    private let cacheTime: Duration
    /// Verified tokens, and how many times any was forgotten: an answer read before a token was
    /// forgotten must not be cached after it.
    private let verified = Mutex<(tokens: [String: Verified], forgotten: Int)>(([:], 0))
    /// The sessions ended here, as they end.
    let ends = Broadcaster<SessionEnd>()

    init(accounts: any AccountService, cacheTime: Duration) {
        self.accounts = accounts
        self.cacheTime = cacheTime
    }

    /// The user of `token`.
    /// - Throws: `.notSignedIn` for an unknown, revoked or expired token.
    nonisolated(nonsending) func userID(for token: String) async throws -> UserID {
        let now = ContinuousClock.now
        let (hit, forgotten) = cached(token)
        if let hit, now - hit.at < cacheTime { return hit.userID }
        do {
            let account = try await accounts.account(for: token)
            remember(token, as: account.id, at: now, unlessForgottenSince: forgotten)
            return account.id
        } catch {
            remember(token, as: nil, at: now, unlessForgottenSince: nil)
            throw error
        }
    }

    // The cache is locked only in these functions of their own, never in the async function
    // itself: with both locks in `userID(for:)`, a release build trapped in the second one
    // ("unlock Mutex on a thread which hasn't acquired the lock") once a send benchmark ran past
    // the cache time (docs/performance.md); kept apart, it does not.

    /// The cached answer for `token`, and the count of forgettings it was read at.
    @inline(never)
    private func cached(_ token: String) -> (Verified?, Int) {
        verified.withLock { ($0.tokens[token], $0.forgotten) }
    }

    /// Caches `user` as the answer for `token` read at `now` (`nil`: forgets it), unless tokens
    /// were forgotten since the read began (`forgotten`): a sign-out or password change here
    /// may have made its answer stale.
    @inline(never)
    private func remember(_ token: String, as user: UserID?, at now: ContinuousClock.Instant, unlessForgottenSince forgotten: Int?) {
        let cacheTime = cacheTime
        verified.withLock { cache in
            guard let user else {
                cache.tokens[token] = nil
                return
            }
            guard cache.forgotten == forgotten else { return }
            if cache.tokens.count >= Self.capacity {
                cache.tokens = cache.tokens.filter { now - $0.value.at < cacheTime }
                if cache.tokens.count >= Self.capacity { cache.tokens.removeAll() }
            }
            cache.tokens[token] = Verified(userID: user, at: now)
        }
    }

    /// Forgets `token`: it was revoked here, so it must not be trusted from the cache.
    func forget(token: String) {
        verified.withLock { cache in
            cache.tokens[token] = nil
            cache.forgotten += 1
        }
        ends.send(.token(token))
    }

    /// Forgets every token of `userID` but `kept`: the user's other sessions were ended here.
    func forget(user userID: UserID, except kept: String) {
        verified.withLock { cache in
            cache.tokens = cache.tokens.filter { $0.key == kept || $0.value.userID != userID }
            cache.forgotten += 1
        }
        ends.send(.othersOf(userID, kept: kept))
    }

    /// Forgets the token of `digest`: its session ended in the shared store, through another
    /// process perhaps.
    func forget(digest: String) {
        let digester = SHA256TokenDigest()
        verified.withLock { cache in
            cache.tokens = cache.tokens.filter { digester.digest($0.key) != digest }
            cache.forgotten += 1
        }
        ends.send(.digest(digest))
    }
}
