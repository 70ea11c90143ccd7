import Foundation
import Kernel

/// Files in memory, for the memory backend and tests: rows in a dictionary, bytes in chunks of
/// the sizes they came in.
public actor InMemoryFilesStore: FilesStore {
    private var rows: [FileID: (file: SharedFile, confirmed: Bool)] = [:]
    private var written: [FileID: (chunks: [[UInt8]], at: Date)] = [:]
    private let clock: any WallClock

    /// A store holding `files` (sent already: their messages carry them) and their bytes;
    /// `clock` dates what it writes (for `sweep`).
    public init(files: [(file: SharedFile, bytes: [UInt8])] = [], clock: any WallClock = SystemWallClock()) {
        self.clock = clock
        for (file, bytes) in files {
            rows[file.id] = (file, true)
            written[file.id] = ([bytes], file.createdAt)
        }
    }

    public func file(_ id: FileID) -> SharedFile? { rows[id]?.file }

    public func files(of messageID: MessageID, in conversationID: ConversationID) -> [SharedFile] {
        rows.values.map(\.file).filter { $0.messageID == messageID && $0.conversationID == conversationID }
            .sorted { ($0.ownerID, $0.position) < ($1.ownerID, $1.position) }
    }

    public func files(in conversationID: ConversationID, before: SharedFile?, limit: Int) -> [SharedFile] {
        let newestFirst = rows.values.map(\.file).filter { $0.conversationID == conversationID }.sorted(by: Self.newer)
        return Array(newestFirst.filter { file in before.map { Self.newer($0, file) } ?? true }.prefix(max(limit, 0)))
    }

    public func storedBytes(of owner: UserID) -> Int64 { rows.values.filter { $0.file.ownerID == owner }.reduce(0) { $0 + $1.file.size } }

    public func write(_ id: FileID, bytes: FileBytes) async throws {
        written[id] = ([], clock.now())
        do {
            for try await chunk in bytes { written[id]?.chunks.append(chunk) }
        } catch {
            written[id] = nil
            throw error
        }
    }

    public func insert(_ file: SharedFile) throws {
        guard !files(of: file.messageID, in: file.conversationID).contains(where: { $0.ownerID == file.ownerID && $0.position == file.position })
        else {
            throw AppError(.conflict, "the message already has a file at position \(file.position)")
        }
        rows[file.id] = (file, false)
    }

    public nonisolated func bytes(of id: FileID, in range: ByteRange) -> FileBytes {
        AsyncThrowingStream { [self] continuation in
            let task = Task {
                var offset: Int64 = 0
                for chunk in await self.chunks(of: id) {
                    defer { offset += Int64(chunk.count) }
                    let start = max(range.offset - offset, 0), end = min(range.offset + range.count - offset, Int64(chunk.count))
                    if start < end { continuation.yield(Array(chunk[Int(start)..<Int(end)])) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func chunks(of id: FileID) -> [[UInt8]] { written[id]?.chunks ?? [] }

    public func delete(_ ids: [FileID]) {
        for id in ids {
            rows[id] = nil
            written[id] = nil
        }
    }

    public func unconfirmed(before cutoff: Date, limit: Int) -> [SharedFile] {
        Array(rows.values.filter { !$0.confirmed && $0.file.createdAt < cutoff }.map(\.file).sorted { $0.createdAt < $1.createdAt }.prefix(limit))
    }

    public func confirm(_ ids: [FileID]) {
        for id in ids { rows[id]?.confirmed = true }
    }

    public func sweep(before cutoff: Date) {
        for (id, bytes) in written where rows[id] == nil && bytes.at < cutoff { written[id] = nil }
    }

    /// Whether `a` comes before `b` newest first: later upload, then greater id.
    private static func newer(_ a: SharedFile, _ b: SharedFile) -> Bool { (a.createdAt, a.id) > (b.createdAt, b.id) }
}
