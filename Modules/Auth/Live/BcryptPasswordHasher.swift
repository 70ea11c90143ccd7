import Auth
import HummingbirdBcrypt

/// bcrypt password hashes (`$2b$…`). Cost 12 by default; lower costs are for tests only.
public struct BcryptPasswordHasher: PasswordHasher {
    private let cost: UInt8

    /// Creates a hasher with the given cost (4–31).
    public init(cost: Int = 12) { self.cost = UInt8(clamping: cost) }

    public func hash(_ password: String) async -> String { Bcrypt.hash(password, cost: cost) }

    public func verify(_ password: String, against hash: String) async -> Bool { Bcrypt.verify(password, hash: hash) }
}
