import Foundation
import Kernel

/// Sharing files in conversations, for one caller. Implementations: `StoredFilesService` (the
/// rules, over any `FilesStore`) and `RemoteFilesService`. A file is sent in two steps: uploaded
/// for a message id (`upload`), then carried by the message sent with that id (Chat). Only the
/// conversation's members read it, once sent; anyone else is told there is no such file.
public protocol FilesService: Sendable {
    /// Stores `bytes` as the file `upload` describes (one of at most `Validation.maxFilesPerMessage`
    /// of its message), streaming, and returns it as stored. A retry
    /// (the same message and position) returns the file stored the first time and stores nothing.
    /// - Throws: `.forbidden` for a non-member or when files are off; `.tooLarge` past the size
    ///   limit or the sender's quota (nothing is kept); `.invalidInput` when fewer or more bytes come
    ///   than declared; `.rateLimited` past the sender's upload budget.
    func upload(_ upload: FileUpload, bytes: FileBytes) async throws -> SharedFile

    /// What the file `id` is, for a reader who may read it.
    /// - Throws: `.notFound` for anyone else, as for an id that does not exist.
    func file(_ id: FileID) async throws -> SharedFile

    /// The file `id`, or `range` of it, for a reader who may read it.
    /// - Throws: `.notFound` as `file(_:)`; `.invalidInput` for a range past its end.
    func download(_ id: FileID, range: ByteRange?) async throws -> FileDownload

    /// The files message `messageID` of `conversationID` carries, in their order.
    /// - Throws: `.notFound` for a conversation the caller is not a member of.
    func files(of messageID: MessageID, in conversationID: ConversationID) async throws -> [SharedFile]

    /// The files sent in `conversationID` older than the file `before` (from the newest, without),
    /// newest first, at most `limit`.
    /// - Throws: `.notFound` for a conversation the caller is not a member of, or a `before` not in it.
    func files(in conversationID: ConversationID, before: FileID?, limit: Int) async throws -> [SharedFile]
}
