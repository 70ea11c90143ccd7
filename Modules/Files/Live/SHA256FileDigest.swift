import Crypto
import Files
import Kernel

/// Files' digest, SHA-256 (swift-crypto's), run over a file's bytes as they pass.
public struct SHA256FileDigest: FileDigest {
    private var hash = SHA256()

    /// A digest of nothing yet.
    public init() {}

    public mutating func update(_ bytes: [UInt8]) { hash.update(data: bytes) }

    public func hex() -> String { Hex.string(Array(hash.finalize())) }
}
