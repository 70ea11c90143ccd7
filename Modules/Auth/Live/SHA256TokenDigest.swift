import Auth
import Crypto

/// SHA-256 of a session token, as 64 hexadecimal characters: what the account store keeps.
public struct SHA256TokenDigest: TokenDigest {
    /// Creates the digest.
    public init() {}

    public func digest(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
