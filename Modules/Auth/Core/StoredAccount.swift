import Kernel

/// An account as the in-memory service keeps it, with its password hash. Never leaves a service.
public struct StoredAccount: Sendable {
    /// The account.
    public let account: Account
    /// The password's hash.
    public var passwordHash: String

    /// Creates a stored account (used by seeds and by sign-up).
    public init(account: Account, passwordHash: String) {
        self.account = account
        self.passwordHash = passwordHash
    }
}
