import Kernel

/// What a sign-up or sign-in hands back: the account and a new session token for it.
public struct IssuedSession: Equatable, Sendable {
    /// The signed-in account.
    public let account: Account
    /// The session's bearer token. The account service keeps only its digest.
    public let token: String

    /// Creates the value.
    public init(account: Account, token: String) {
        self.account = account
        self.token = token
    }
}
