import Kernel
import Synchronization

/// A running SHA-256 of a file's bytes as they pass (swift-crypto's, given by the composition
/// root: the feature's core computes nothing cryptographic itself).
public protocol FileDigest: Sendable {
    /// Adds `bytes` to what is digested.
    mutating func update(_ bytes: [UInt8])
    /// The digest of everything added, in lowercase hexadecimal.
    func hex() -> String
}

/// An upload's bytes on their way to a store, counted, digested and checked as they pass
/// (`bytes`): past the size limit or the quota, past what the sender declared, or past their
/// upload budget, the next chunk throws and the store drops what it wrote. Nothing is held but
/// the chunk in hand.
final class UploadMeter: Sendable {
    private let state: Mutex<(size: Int64, digest: any FileDigest)>
    private let check: @Sendable (_ size: Int64, _ chunk: Int) throws -> Void

    /// A meter digesting with `digest`, asking `check` before each chunk passes (with the size
    /// it brings the upload to, and its own).
    init(digest: any FileDigest, check: @escaping @Sendable (_ size: Int64, _ chunk: Int) throws -> Void) {
        state = Mutex((0, digest))
        self.check = check
    }

    /// The bytes counted so far, and their digest.
    var result: (size: Int64, sha256: String) { state.withLock { ($0.size, $0.digest.hex()) } }

    /// `base`'s chunks, each counted, checked and digested as it passes.
    func bytes(_ base: FileBytes) -> FileBytes { ChunkMap(base) { [self] chunk in try pass(chunk) } }

    private func pass(_ chunk: [UInt8]) throws -> [UInt8] {
        let size = state.withLock { $0.size } + Int64(chunk.count)
        try check(size, chunk.count)
        state.withLock { state in
            state.size = size
            state.digest.update(chunk)
        }
        return chunk
    }
}
