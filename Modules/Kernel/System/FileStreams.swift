import Foundation
import Synchronization

/// A file's bytes as a stream, one chunk at a time in each direction: what a file is sent from
/// and saved to, and what a store keeps beside its database. Neither way holds more than a chunk.
public enum FileStreams {
    /// Bytes read at a time.
    public static let chunkSize = 256 * 1_024

    /// `count` bytes in words, as people read a file's size: "100 MiB", "1.5 KiB", "12 bytes".
    public static func size(_ count: Int64) -> String {
        for (unit, size) in [("GiB", Int64(1) << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] where count >= size {
            let value = Double(count) / Double(size)
            return value == value.rounded() ? "\(Int64(value)) \(unit)" : String(format: "%.1f \(unit)", value)
        }
        return count == 1 ? "1 byte" : "\(count) bytes"
    }

    /// An open descriptor, closed once the last reader of it is gone.
    private final class Descriptor: Sendable {
        let number: Int32
        let position: Mutex<(offset: Int64, left: Int64)>

        init(_ number: Int32, offset: Int64, count: Int64) {
            self.number = number
            position = Mutex((offset, count))
        }

        deinit { close(number) }
    }

    /// The regular file at `path`: its size, and `count` of its bytes from `offset` (all of them
    /// without), read as they are asked for.
    /// - Throws: `.notFound` when nothing is there; `.invalidInput` for a folder, a FIFO or a
    ///   device; `.unavailable` when it cannot be read.
    public static func reading(_ path: String, offset: Int64 = 0, count: Int64? = nil) throws -> (
        size: Int64, bytes: AsyncThrowingStream<[UInt8], any Error>
    ) {
        // O_NONBLOCK: a FIFO swapped in for the file does not make the open wait.
        let number = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard number >= 0 else {
            let reason = String(cString: strerror(errno))
            throw errno == ENOENT ? AppError(.notFound, "no file \(path)") : AppError(.unavailable, "\(path) cannot be read: \(reason)")
        }
        var info = stat()
        guard fstat(number, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(number)
            throw AppError(.invalidInput, "\(path) is not a regular file")
        }
        let size = Int64(info.st_size)
        let descriptor = Descriptor(number, offset: offset, count: min(count ?? size, max(size - offset, 0)))
        let bytes = AsyncThrowingStream<[UInt8], any Error> {
            let (offset, left) = descriptor.position.withLock { $0 }
            guard left > 0 else { return nil }
            // Not zeroed first: `pread` fills what is kept.
            let chunk = try [UInt8](unsafeUninitializedCapacity: Int(min(left, Int64(chunkSize)))) { buffer, count in
                let read = pread(descriptor.number, buffer.baseAddress, buffer.count, off_t(offset))
                guard read >= 0 else { throw AppError(.unavailable, "\(path) cannot be read: \(String(cString: strerror(errno)))") }
                guard read > 0 else { throw AppError(.unavailable, "\(path) ended early: it changed while being read") }
                count = read
            }
            descriptor.position.withLock { $0 = (offset + Int64(chunk.count), left - Int64(chunk.count)) }
            return chunk
        }
        return (size, bytes)
    }

    /// Creates the file `path` (it must not exist: `O_EXCL`) with `mode`, writes `bytes` to it as
    /// they come, and returns how many there were. When `bytes` throws or a write fails, the file
    /// is removed and the error thrown.
    /// - Throws: `.conflict` when `path` exists; `.unavailable` when it cannot be written.
    @discardableResult
    public static func create(_ path: String, mode: mode_t = 0o600, from bytes: some AsyncSequence<[UInt8], any Error>) async throws -> Int64 {
        let number = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard number >= 0 else {
            let reason = String(cString: strerror(errno))
            throw errno == EEXIST ? AppError(.conflict, "\(path) exists already") : AppError(.unavailable, "\(path) cannot be written: \(reason)")
        }
        var written: Int64 = 0
        do {
            defer { close(number) }
            for try await chunk in bytes {
                try write(chunk, to: number, path: path)
                written += Int64(chunk.count)
            }
        } catch {
            unlink(path)
            throw error
        }
        return written
    }

    /// Writes all of `chunk` to `number`.
    private static func write(_ chunk: [UInt8], to number: Int32, path: String) throws {
        var done = 0
        while done < chunk.count {
            let count = chunk.withUnsafeBytes { Foundation.write(number, $0.baseAddress! + done, chunk.count - done) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw AppError(.unavailable, "\(path) cannot be written: \(String(cString: strerror(errno)))") }
            done += count
        }
    }
}

/// A file's chunks held as an existential (`any AsyncSequence<[UInt8], any Error>`), each passed
/// through `transform` as it comes: checked on the way to a store, or made a network buffer on
/// the way to a socket. An existential sequence has no `map` of its own that keeps a type.
public struct ChunkMap<Element: Sendable>: AsyncSequence, Sendable {
    private let base: any AsyncSequence<[UInt8], any Error> & Sendable
    private let transform: @Sendable ([UInt8]) async throws -> Element

    /// `base`'s chunks through `transform`; what it throws ends the sequence with that error.
    public init(_ base: any AsyncSequence<[UInt8], any Error> & Sendable, _ transform: @escaping @Sendable ([UInt8]) async throws -> Element) {
        self.base = base
        self.transform = transform
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: any AsyncIteratorProtocol<[UInt8], any Error>
        let transform: @Sendable ([UInt8]) async throws -> Element

        public mutating func next() async throws -> Element? {
            guard let chunk = try await base.next() else { return nil }
            return try await transform(chunk)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), transform: transform) }
}
