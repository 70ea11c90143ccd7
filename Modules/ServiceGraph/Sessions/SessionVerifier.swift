import Auth
import AuthLive
import Kernel
import Synchronization

/// Resolves session tokens to users through the account service, and bots' API tokens to bots
/// and their grants (`BotCredentials`), trusting an answer for a short time so that a burst of
/// calls costs one look-up, and no longer, so that a revocation made by another process takes
/// effect here within that time.
final class SessionVerifier: Sendable {
    private struct Verified {
        let userID: UserID
        let grant: Grant
        let at: ContinuousClock.Instant
    }

    /// What the cache keys: a bearer token, or a hook's id and secret (which no header can name).
    private enum Key: Hashable {
        case token(String)
        case hook(id: String, secret: String)
    }

    /// Verified tokens kept at most; past it the oldest half is dropped.
    private static let capacity = 10_000

    private let accounts: any AccountService
    private let bots: BotCredentials?
    private let cacheTime: Duration
    /// Verified tokens and hooks, and how many times any was forgotten: an answer read before a
    /// token was forgotten must not be cached after it.
    private let verified = Mutex<(keys: [Key: Verified], forgotten: Int)>(([:], 0))
    /// The sessions ended here, as they end.
    let ends = Broadcaster<SessionEnd>()

    /// Resolves session tokens through `accounts`, API tokens and hooks through `bots` (none: the
    /// server resolves them, through `accounts`).
    init(accounts: any AccountService, bots: BotCredentials?, cacheTime: Duration) {
        self.accounts = accounts
        self.bots = bots
        self.cacheTime = cacheTime
    }

    /// The user of `token`, and what it may do.
    /// - Throws: `.notSignedIn` for an unknown, revoked or expired token.
    nonisolated(nonsending) func principal(for token: String) async throws -> (UserID, Grant) {
        try await resolve(.token(token))
    }

    /// What hook `id` with `secret` posts as: its bot, allowed to send in its one conversation
    /// (`BotCredentials.poster`), checked, trusted and forgotten as a token is.
    /// - Throws: `BotRules.noHook` for an unknown hook or a wrong secret alike; `.usage` where
    ///   hooks are not kept (a remote backend).
    nonisolated(nonsending) func poster(hook id: String, secret: String) async throws -> (UserID, Grant) {
        try await resolve(.hook(id: id, secret: secret))
    }

    /// The answer for `key`, from the cache while it is fresh, else looked up (and cached).
    private nonisolated(nonsending) func resolve(_ key: Key) async throws -> (UserID, Grant) {
        let now = ContinuousClock.now
        let (hit, forgotten) = cached(key)
        if let hit, now - hit.at < cacheTime { return (hit.userID, hit.grant) }
        do {
            let found = try await lookUp(key)
            remember(key, as: Verified(userID: found.0, grant: found.1, at: now), unlessForgottenSince: forgotten)
            return found
        } catch {
            remember(key, as: nil, unlessForgottenSince: nil)
            throw error
        }
    }

    /// What `key` stands for, in the store (or through the server).
    private nonisolated(nonsending) func lookUp(_ key: Key) async throws -> (UserID, Grant) {
        switch key {
        case .hook(let id, let secret):
            guard let bots else { throw AppError(.usage, "hooks are served by the server that keeps them") }
            return try await bots.poster(hook: id, secret: secret).principal
        case .token(let token):
            if let bots, BotRules.isAPIToken(token) { return try await bots.principal(forToken: token) }
            return (try await accounts.account(for: token).id, .person)
        }
    }

    /// Whether bots' API tokens are resolved here (where the store is), not by the account service.
    var resolvesBotTokens: Bool { bots != nil }

    /// The user of `token`, whatever it may do.
    /// - Throws: as `principal(for:)` does.
    nonisolated(nonsending) func userID(for token: String) async throws -> UserID { try await principal(for: token).0 }

    // The cache is locked only in these functions of their own, never in the async function
    // itself: with both locks in `resolve(_:)`, a release build trapped in the second one
    // ("unlock Mutex on a thread which hasn't acquired the lock") once a send benchmark ran past
    // the cache time (docs/performance.md); kept apart, it does not.

    /// The cached answer for `key`, and the count of forgettings it was read at.
    @inline(never)
    private func cached(_ key: Key) -> (Verified?, Int) {
        verified.withLock { ($0.keys[key], $0.forgotten) }
    }

    /// Caches `answer` (read at its time) for `key` (`nil`: forgets it), unless tokens were
    /// forgotten since the read began (`forgotten`): a sign-out or password change here may have
    /// made its answer stale.
    @inline(never)
    private func remember(_ key: Key, as answer: Verified?, unlessForgottenSince forgotten: Int?) {
        let cacheTime = cacheTime
        verified.withLock { cache in
            guard let answer else {
                cache.keys[key] = nil
                return
            }
            guard cache.forgotten == forgotten else { return }
            if cache.keys.count >= Self.capacity {
                cache.keys = cache.keys.filter { answer.at - $0.value.at < cacheTime }
                if cache.keys.count >= Self.capacity { cache.keys.removeAll() }
            }
            cache.keys[key] = answer
        }
    }

    /// Forgets every bot's token and hook, and has every bot's socket check its token again: one
    /// was revoked here, or a bot deleted, and the cache does not know which it was.
    func forgetBotTokens() {
        verified.withLock { cache in
            cache.keys = cache.keys.filter { $0.value.grant == .person }
            cache.forgotten += 1
        }
        ends.send(.botTokens)
    }

    /// Forgets `token`: it was revoked here, so it must not be trusted from the cache.
    func forget(token: String) {
        verified.withLock { cache in
            cache.keys[.token(token)] = nil
            cache.forgotten += 1
        }
        ends.send(.token(token))
    }

    /// Forgets every token of `userID` but `kept`, and those of the bots `userID` keeps: the
    /// user's other sessions were ended here (a password change, a suspension, a deletion).
    func forget(user userID: UserID, except kept: String) {
        verified.withLock { cache in
            cache.keys = cache.keys.filter { $0.key == .token(kept) || ($0.value.userID != userID && $0.value.grant.owner != userID) }
            cache.forgotten += 1
        }
        ends.send(.othersOf(userID, kept: kept))
        ends.send(.botTokens)
    }

    /// Forgets the token of `digest`: its session ended in the shared store, through another
    /// process perhaps.
    func forget(digest: String) {
        let digester = SHA256TokenDigest()
        verified.withLock { cache in
            cache.keys = cache.keys.filter { entry in
                guard case .token(let token) = entry.key else { return true }
                return digester.digest(token) != digest
            }
            cache.forgotten += 1
        }
        ends.send(.digest(digest))
    }
}
