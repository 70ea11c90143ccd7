import Auth
import Crypto
import Kernel

/// SHA-256 of a session token, as 64 hexadecimal characters: what the account store keeps.
public struct SHA256TokenDigest: TokenDigest {
    /// Creates the digest.
    public init() {}

    public func digest(_ token: String) -> String {
        Hex.string(SHA256.hash(data: Array(token.utf8)))
    }
}
