import Auth
import Kernel
import ServerSupport

/// How often passwords may be tried, on sign-in and on a password change: per client address,
/// every check (against trying many accounts; it bounds the hashing one address can cost); per
/// account from one address, failed checks (against guessing one password); per account from
/// everywhere, failed checks (a larger limit, against guessing from many addresses). Past the
/// last, an address with no failed check for that account within `freshFor` still has its
/// password checked: a stranger's guesses elsewhere do not lock the owner out, and an address
/// gets one such check per `freshFor`. Sign-ups are limited per address. An attempt refused by a limit
/// is not given back (polling costs the poller); one the server was too busy to check is, and a
/// right password gives back what it spent on the account. Exceeding a limit is a 429 with
/// `Retry-After`.
public struct SignInLimits: Sendable {
    private let perAccountAndAddress: RateLimiter
    private let perAccount: RateLimiter
    private let freshAddresses: RateLimiter
    private let perAddress: RateLimiter
    private let signUpsPerAddress: RateLimiter

    /// The product's limits: per account from one address 5 failures at once, then one every
    /// 12 s; per account from everywhere 100 failures at once, then one every 30 s, past which an
    /// address with no failure for the account in the last hour (`freshFor`) is still checked;
    /// per address 30 checks at once, then one a second; sign-ups 20 at once per address, then
    /// one every 3 s.
    public init(
        perAccountAndAddress: RateLimiter = RateLimiter(burst: 5, refill: .seconds(12)),
        perAccount: RateLimiter = RateLimiter(burst: 100, refill: .seconds(30)),
        freshFor: Duration = .seconds(3_600),
        perAddress: RateLimiter = RateLimiter(burst: 30, refill: .seconds(1)),
        signUpsPerAddress: RateLimiter = RateLimiter(burst: 20, refill: .seconds(3))
    ) {
        self.perAccountAndAddress = perAccountAndAddress
        self.perAccount = perAccount
        freshAddresses = RateLimiter(burst: 1, refill: freshFor)
        self.perAddress = perAddress
        self.signUpsPerAddress = signUpsPerAddress
    }

    /// Runs `check` (a sign-in, or a password change that checks the current password of the
    /// account of `email`) if the address and the account have attempts left, or the account has
    /// none but this address has not failed for it lately.
    /// - Throws: `RetryLater` when refused; else what `check` throws.
    func checking<T>(email: String, address: String, _ check: () async throws -> T) async throws -> T {
        // Not an address any account can have: refused before it could take a limiter's memory.
        guard email.utf8.count <= Validation.maxEmailBytes else { throw AuthRules.wrongCredentials }
        let account = AuthRules.signInKey(email), client = ClientAddress.limitKey(address), pair = account + " " + client
        func refused(_ wait: Int, _ whose: String) -> RetryLater {
            RetryLater(AppError(.rateLimited, "too many password attempts \(whose); try again in \(wait) s"), seconds: wait)
        }
        if let wait = perAddress.spend(client) { throw refused(wait, "from this address") }
        if let wait = perAccountAndAddress.spend(pair) { throw refused(wait, "for this account") }
        // Each is taken, when it has one, to be kept by a failure: the account's bucket counts
        // failures, and the address's first failure for the account marks it as not fresh.
        let fresh = freshAddresses.spend(pair) == nil, accountWait = perAccount.spend(account)
        if let accountWait, !fresh { throw refused(accountWait, "for this account") }
        func giveBack(busy: Bool) {
            if busy { perAddress.refund(client) }
            perAccountAndAddress.refund(pair)
            if accountWait == nil { perAccount.refund(account) }
            if fresh { freshAddresses.refund(pair) }
        }
        do {
            let result = try await check()
            giveBack(busy: false)
            return result
        } catch let error as AppError where error.kind == .unavailable {
            giveBack(busy: true)
            throw error
        }
    }

    /// Runs a sign-up from `address` if the address has sign-ups left (one the server was too
    /// busy to make is given back).
    /// - Throws: `RetryLater` when it has none left; else what `signUp` throws.
    func signingUp<T>(address: String, _ signUp: () async throws -> T) async throws -> T {
        let client = ClientAddress.limitKey(address)
        if let wait = signUpsPerAddress.spend(client) {
            throw RetryLater(AppError(.rateLimited, "too many sign-ups from this address; try again in \(wait) s"), seconds: wait)
        }
        do {
            return try await signUp()
        } catch let error as AppError where error.kind == .unavailable {
            signUpsPerAddress.refund(client)
            throw error
        }
    }
}
