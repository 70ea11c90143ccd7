import Auth
import Kernel
import ServerSupport

/// How often passwords may be tried, on sign-in and on a password change: per account from
/// one client address (against guessing one password; a stranger's guesses from elsewhere do
/// not lock the owner out), per account from everywhere (a larger limit, against guessing from
/// many addresses), and per client address (against trying many accounts). Sign-ups are limited
/// per address. An attempt is spent only if its password is checked: one the server was too
/// busy to check is given back. Exceeding a limit is a 429 with `Retry-After`.
public struct SignInLimits: Sendable {
    private let perAccountAndAddress: RateLimiter
    private let perAccount: RateLimiter
    private let perAddress: RateLimiter
    private let signUpsPerAddress: RateLimiter

    /// The product's limits: per account from one address 5 at once, then one every 12 s; per
    /// account from everywhere 100 at once, then one every 30 s; per address 30 at once, then
    /// one a second; sign-ups 20 at once per address, then one every 3 s.
    public init(perAccountAndAddress: RateLimiter = RateLimiter(burst: 5, refill: .seconds(12)),
                perAccount: RateLimiter = RateLimiter(burst: 100, refill: .seconds(30)),
                perAddress: RateLimiter = RateLimiter(burst: 30, refill: .seconds(1)),
                signUpsPerAddress: RateLimiter = RateLimiter(burst: 20, refill: .seconds(3))) {
        self.perAccountAndAddress = perAccountAndAddress
        self.perAccount = perAccount
        self.perAddress = perAddress
        self.signUpsPerAddress = signUpsPerAddress
    }

    /// Runs `check` (a sign-in, or a password change that checks the current password of the
    /// account of `email`) if the address and the account have attempts left.
    /// - Throws: `RetryLater` when one has none left; else what `check` throws.
    func checking<T>(email: String, address: String, _ check: () async throws -> T) async throws -> T {
        // Not an address any account can have: refused before it could take a limiter's memory.
        guard email.utf8.count <= Validation.maxEmailBytes else { throw AuthRules.wrongCredentials }
        let account = AuthRules.signInKey(email), client = ClientAddress.limitKey(address)
        let spent = [(perAddress, client), (perAccountAndAddress, account + " " + client), (perAccount, account)]
        for (index, (limiter, key)) in spent.enumerated() {
            guard let wait = limiter.spend(key) else { continue }
            spent.prefix(index).forEach { $0.0.refund($0.1) }
            let whose = index == 0 ? "from this address" : "for this account"
            throw RetryLater(AppError(.rateLimited, "too many password attempts \(whose); try again in \(wait) s"), seconds: wait)
        }
        do {
            return try await check()
        } catch let error as AppError where error.kind == .unavailable {
            spent.forEach { $0.0.refund($0.1) }
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
