import Auth
import Kernel
import ServerSupport

/// How often sign-in may be tried: per account (against guessing one password) and per client
/// address (against trying many accounts). Exceeding either is a 429 with `Retry-After`.
public struct SignInLimits: Sendable {
    private let perAccount: RateLimiter
    private let perAddress: RateLimiter
    private let signUpsPerAddress: RateLimiter

    /// The product's limits: 5 attempts at once per account then one every 12 s (25 a minute at
    /// most), 30 at once per address then one a second; sign-ups (which also hash a password) 20
    /// at once per address, then one every 3 s.
    public init(perAccount: RateLimiter = RateLimiter(burst: 5, refill: .seconds(12)),
                perAddress: RateLimiter = RateLimiter(burst: 30, refill: .seconds(1)),
                signUpsPerAddress: RateLimiter = RateLimiter(burst: 20, refill: .seconds(3))) {
        self.perAccount = perAccount
        self.perAddress = perAddress
        self.signUpsPerAddress = signUpsPerAddress
    }

    /// Spends an attempt of the address and of the account.
    /// - Throws: `RetryLater` when either has none left.
    func admit(email: String, address: String) throws {
        // Not an address any account can have: refused before it could take a limiter's memory.
        guard email.utf8.count <= Validation.maxEmailBytes else { throw AuthRules.wrongCredentials }
        if let wait = perAddress.spend(address) {
            throw RetryLater(AppError(.rateLimited, "too many sign-in attempts from this address; try again in \(wait) s"), seconds: wait)
        }
        if let wait = perAccount.spend(AuthRules.signInKey(email)) {
            throw RetryLater(AppError(.rateLimited, "too many sign-in attempts for this account; try again in \(wait) s"), seconds: wait)
        }
    }

    /// Spends a sign-up of the address.
    /// - Throws: `RetryLater` when it has none left.
    func admitSignUp(address: String) throws {
        if let wait = signUpsPerAddress.spend(address) {
            throw RetryLater(AppError(.rateLimited, "too many sign-ups from this address; try again in \(wait) s"), seconds: wait)
        }
    }
}
