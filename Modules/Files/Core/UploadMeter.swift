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

/// An upload's bytes on their way to a store, counted and checked as they pass (`bytes`): past
/// the size limit or the quota, past what the sender declared, or past their upload budget, the
/// next chunk throws and the store drops what it wrote. Each chunk is digested on a task of its
/// own while the store writes it (the digest took more than the write: a local send of 25 MiB
/// ran at a third of `cp`), at most `ahead` chunks behind, so that nothing is held but a few chunks.
final class UploadMeter: Sendable {
    /// Most chunks the digest may lag behind the store.
    static let ahead = 8

    private let size = Mutex<Int64>(0)
    private let check: @Sendable (_ size: Int64, _ chunk: Int) throws -> Void
    private let queue = ChunkQueue(capacity: ahead)
    private let digesting: Task<String, Never>

    /// A meter digesting with `digest`, asking `check` before each chunk passes (with the size
    /// it brings the upload to, and its own).
    init(digest: any FileDigest, check: @escaping @Sendable (_ size: Int64, _ chunk: Int) throws -> Void) {
        self.check = check
        digesting = Task.detached { [queue] in
            var digest = digest
            while let chunk = await queue.take() { digest.update(chunk) }
            return digest.hex()
        }
    }

    deinit { queue.close() }

    /// `base`'s chunks, each counted and checked, and handed to the digest, as it passes.
    func bytes(_ base: FileBytes) -> FileBytes { ChunkMap(base) { [self] chunk in try await pass(chunk) } }

    /// The bytes counted, and their digest, once every chunk has passed.
    func result() async -> (size: Int64, sha256: String) {
        queue.close()
        return (size.withLock { $0 }, await digesting.value)
    }

    private func pass(_ chunk: [UInt8]) async throws -> [UInt8] {
        let total = size.withLock { $0 } + Int64(chunk.count)
        try check(total, chunk.count)
        size.withLock { $0 = total }
        await queue.put(chunk)
        return chunk
    }
}

/// Chunks handed from one task to another, at most `capacity` waiting: `put` waits while it is
/// full, `take` while it is empty and not closed.
private final class ChunkQueue: Sendable {
    private struct State {
        var chunks: [[UInt8]] = []
        var closed = false
        var taker: CheckedContinuation<[UInt8]?, Never>?
        var putter: CheckedContinuation<Void, Never>?
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) { self.capacity = capacity }

    func put(_ chunk: [UInt8]) async {
        await withCheckedContinuation { (waiting: CheckedContinuation<Void, Never>) in
            let (taker, full) = state.withLock { state -> (CheckedContinuation<[UInt8]?, Never>?, Bool) in
                if let taker = state.taker {
                    state.taker = nil
                    return (taker, false)
                }
                state.chunks.append(chunk)
                guard state.chunks.count >= capacity else { return (nil, false) }
                state.putter = waiting
                return (nil, true)
            }
            taker?.resume(returning: chunk)
            if !full { waiting.resume() }
        }
    }

    func take() async -> [UInt8]? {
        await withCheckedContinuation { (waiting: CheckedContinuation<[UInt8]?, Never>) in
            let (next, putter, wait) = state.withLock { state -> ([UInt8]?, CheckedContinuation<Void, Never>?, Bool) in
                guard state.chunks.isEmpty else {
                    let putter = state.putter
                    state.putter = nil
                    return (state.chunks.removeFirst(), putter, false)
                }
                guard !state.closed else { return (nil, nil, false) }
                state.taker = waiting
                return (nil, nil, true)
            }
            putter?.resume()
            if !wait { waiting.resume(returning: next) }
        }
    }

    func close() {
        let taker = state.withLock { state in
            state.closed = true
            defer { state.taker = nil }
            return state.chunks.isEmpty ? state.taker : nil
        }
        taker?.resume(returning: nil)
    }
}
