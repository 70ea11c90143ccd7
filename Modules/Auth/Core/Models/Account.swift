import Foundation
import Kernel

/// A person's sign-in identity. The display name and status belong to Profile.
public struct Account: Codable, Equatable, Sendable {
    /// The user this account belongs to.
    public let id: UserID
    /// The normalised (lower-case) email address, unique across accounts.
    public let email: String

    /// Creates an account value.
    public init(id: UserID, email: String) {
        self.id = id
        self.email = email
    }
}

/// An account as the in-memory store keeps it, with its password hash. Never leaves a service.
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
