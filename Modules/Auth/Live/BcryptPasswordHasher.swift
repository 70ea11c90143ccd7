import Auth
import Crypto
import HummingbirdBcrypt
import Kernel

// What Auth keeps instead of secrets: bcrypt hashes of passwords, and (below) SHA-256 digests of session tokens.

/// bcrypt password hashes (`$2b$…`), computed on a `HashingPool` so that a burst of sign-ins
/// waits for the pool's threads instead of taking Swift's. Cost 12 by default; lower costs are
/// for tests only.
public struct BcryptPasswordHasher: PasswordHasher {
    /// The costs a hasher takes: 4 (tests) to 14 (about four times 12's time).
    public static let costs = 4...14

    private let cost: UInt8
    private let pool: HashingPool
    /// A well-formed hash of the same cost that no password matches: checked when there is no
    /// account, so that an unknown email costs the same time as a wrong password.
    private let standIn: String

    /// Creates a hasher with the given cost, kept within `costs`, over `pool`.
    public init(cost: Int = 12, pool: HashingPool = HashingPool()) {
        self.pool = pool
        self.cost = UInt8(min(max(cost, Self.costs.lowerBound), Self.costs.upperBound))
        let digits = self.cost < 10 ? "0\(self.cost)" : "\(self.cost)"
        standIn = "$2b$\(digits)$" + String(repeating: "N", count: 53)
    }

    public func hash(_ password: String) async throws -> String {
        let cost = cost
        return try await pool.run { Bcrypt.hash(password, cost: cost) }
    }

    public func verify(_ password: String, against hash: String?) async throws -> Bool {
        let checked = hash ?? standIn
        let matches = try await pool.run { Bcrypt.verify(password, hash: checked) }
        return hash != nil && matches
    }
}

/// SHA-256 of a session token, as 64 hexadecimal characters: what the account store keeps.
public struct SHA256TokenDigest: TokenDigest {
    /// Creates the digest.
    public init() {}

    public func digest(_ token: String) -> String { Hex.string(SHA256.hash(data: Array(token.utf8))) }
}
