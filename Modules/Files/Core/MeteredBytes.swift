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

/// An upload's bytes on their way to a store, counted, digested and checked as they pass: past
/// the size limit or the quota, past what the sender declared, or past their upload budget, the
/// next chunk throws and the store drops what it wrote. Nothing is held but the chunk in hand.
struct MeteredBytes: AsyncSequence, Sendable {
    typealias Element = [UInt8]

    /// What passed: its size and digest once the sequence ended.
    final class Meter: Sendable {
        private let state: Mutex<(size: Int64, digest: any FileDigest)>
        fileprivate let check: @Sendable (_ size: Int64, _ chunk: Int) throws -> Void

        init(digest: any FileDigest, check: @escaping @Sendable (_ size: Int64, _ chunk: Int) throws -> Void) {
            state = Mutex((0, digest))
            self.check = check
        }

        /// The bytes counted so far, and their digest.
        var result: (size: Int64, sha256: String) { state.withLock { ($0.size, $0.digest.hex()) } }

        fileprivate func pass(_ chunk: [UInt8]) throws {
            let size = state.withLock { $0.size } + Int64(chunk.count)
            try check(size, chunk.count)
            state.withLock { state in
                state.size = size
                state.digest.update(chunk)
            }
        }
    }

    let base: FileBytes
    let meter: Meter

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: any AsyncIteratorProtocol<[UInt8], any Error>
        let meter: Meter

        mutating func next() async throws -> [UInt8]? {
            guard let chunk = try await base.next() else { return nil }
            try meter.pass(chunk)
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), meter: meter) }
}
