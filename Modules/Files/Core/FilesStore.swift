import Foundation
import Kernel

/// Where files are kept: their rows and their bytes. It reads and writes, and decides nothing
/// (`StoredFilesService` does). Implementations: `InMemoryFilesStore`, `SQLFilesStore` (bytes
/// in files beside the database, ADR 36), `PostgresFilesStore` (bytes in the database).
public protocol FilesStore: Sendable {
    /// The file `id`, or `nil` when there is none.
    func file(_ id: FileID) async throws -> SharedFile?

    /// The files uploaded for `messageID` of `conversationID` (by anyone: a message id is its
    /// sender's), by owner and position.
    func files(of messageID: MessageID, in conversationID: ConversationID) async throws -> [SharedFile]

    /// The files of `conversationID` older than `before` (from the newest, without), newest first
    /// (by upload time, then id), at most `limit`.
    func files(in conversationID: ConversationID, before: SharedFile?, limit: Int) async throws -> [SharedFile]

    /// How many bytes of files `owner` keeps.
    func storedBytes(of owner: UserID) async throws -> Int64

    /// Writes `bytes` as the bytes of the file `id`, chunk by chunk as they come; nothing is
    /// readable until `insert` records it. When `bytes` throws, what was written is removed (or
    /// left to `sweep`, if the process dies first).
    func write(_ id: FileID, bytes: FileBytes) async throws

    /// Records `file`, whose bytes `write` wrote.
    /// - Throws: `.conflict` when its message already has a file at its position.
    func insert(_ file: SharedFile) async throws

    /// `range` of the bytes of the file `id`, in chunks.
    func bytes(of id: FileID, in range: ByteRange) -> FileBytes

    /// Removes the files `ids`, their rows and their bytes: none of their bytes is left in the store.
    func delete(_ ids: [FileID]) async throws

    /// Files recorded before `cutoff` whose message the clean-up pass has not yet seen carry them,
    /// oldest first, at most `limit`.
    func unconfirmed(before cutoff: Date, limit: Int) async throws -> [SharedFile]

    /// Notes that the messages of `ids` carry them, so the clean-up pass looks at them no more.
    func confirm(_ ids: [FileID]) async throws

    /// Removes bytes written before `cutoff` that no row records (uploads that died).
    func sweep(before cutoff: Date) async throws
}
