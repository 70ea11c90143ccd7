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

    /// Verified tokens kept at most; past it the oldest half is dropped.
    private static let capacity = 10_000

    private let accounts: any AccountService
    private let bots: BotCredentials?
    private let cacheTime: Duration
    /// Verified tokens, and how many times any was forgotten: an answer read before a token was
    /// forgotten must not be cached after it.
    private let verified = Mutex<(tokens: [String: Verified], forgotten: Int)>(([:], 0))
    /// The sessions ended here, as they end.
    let ends = Broadcaster<SessionEnd>()

    /// Resolves session tokens through `accounts`, API tokens through `bots` (none: the server
    /// resolves them, through `accounts`).
    init(accounts: any AccountService, bots: BotCredentials?, cacheTime: Duration) {
        self.accounts = accounts
        self.bots = bots
        self.cacheTime = cacheTime
    }

    /// The user of `token`, and what it may do.
    /// - Throws: `.notSignedIn` for an unknown, revoked or expired token.
    nonisolated(nonsending) func principal(for token: String) async throws -> (UserID, Grant) {
        let now = ContinuousClock.now
        let (hit, forgotten) = cached(token)
        if let hit, now - hit.at < cacheTime { return (hit.userID, hit.grant) }
        do {
            let found =
                if let bots, let hook = HookKey(token) {
                    try await bots.poster(hook: hook.id, secret: hook.secret).principal
                } else if let bots, BotRules.isAPIToken(token) {
                    try await bots.principal(forToken: token)
                } else {
                    (try await accounts.account(for: token).id, Grant.person)
                }
            remember(token, as: Verified(userID: found.0, grant: found.1, at: now), unlessForgottenSince: forgotten)
            return found
        } catch {
            remember(token, as: nil, unlessForgottenSince: nil)
            throw error
        }
    }

    /// A hook's id and secret as the cache keys them: what a hook's URL stands for is checked,
    /// trusted and forgotten as a token is.
    struct HookKey {
        let id: String
        let secret: String

        private static let prefix = "hook "

        /// The key of hook `id` with `secret`.
        static func key(_ id: String, secret: String) -> String { prefix + id + " " + secret }

        /// The hook of a key, or `nil` for a token.
        init?(_ key: String) {
            guard key.hasPrefix(Self.prefix) else { return nil }
            let parts = key.dropFirst(Self.prefix.count).split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            (id, secret) = (String(parts[0]), String(parts[1]))
        }
    }

    /// Whether bots' API tokens are resolved here (where the store is), not by the account service.
    var resolvesBotTokens: Bool { bots != nil }

    /// The user of `token`, whatever it may do.
    /// - Throws: as `principal(for:)` does.
    nonisolated(nonsending) func userID(for token: String) async throws -> UserID { try await principal(for: token).0 }

    // The cache is locked only in these functions of their own, never in the async function
    // itself: with both locks in `principal(for:)`, a release build trapped in the second one
    // ("unlock Mutex on a thread which hasn't acquired the lock") once a send benchmark ran past
    // the cache time (docs/performance.md); kept apart, it does not.

    /// The cached answer for `token`, and the count of forgettings it was read at.
    @inline(never)
    private func cached(_ token: String) -> (Verified?, Int) {
        verified.withLock { ($0.tokens[token], $0.forgotten) }
    }

    /// Caches `answer` (read at its time) for `token` (`nil`: forgets it), unless tokens
    /// were forgotten since the read began (`forgotten`): a sign-out or password change here
    /// may have made its answer stale.
    @inline(never)
    private func remember(_ token: String, as answer: Verified?, unlessForgottenSince forgotten: Int?) {
        let cacheTime = cacheTime
        verified.withLock { cache in
            guard let answer else {
                cache.tokens[token] = nil
                return
            }
            guard cache.forgotten == forgotten else { return }
            if cache.tokens.count >= Self.capacity {
                cache.tokens = cache.tokens.filter { answer.at - $0.value.at < cacheTime }
                if cache.tokens.count >= Self.capacity { cache.tokens.removeAll() }
            }
            cache.tokens[token] = answer
        }
    }

    /// Forgets every bot's token: one was revoked here, or a bot deleted, and the cache does not
    /// know which token it was.
    func forgetBotTokens() {
        verified.withLock { cache in
            cache.tokens = cache.tokens.filter { $0.value.grant == .person }
            cache.forgotten += 1
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
