import Files
import FilesAPI
import Kernel
import RemoteClient

/// One caller's files on the MessageAI server, for the remote backend: uploads and downloads
/// stream over HTTP, a chunk at a time.
public struct RemoteFilesService: FilesService {
    private let connection: RemoteConnection
    private let caller: Caller

    /// Creates the service for `caller` over the process's connection.
    public init(connection: RemoteConnection, caller: Caller) {
        self.connection = connection
        self.caller = caller
    }

    public func upload(_ upload: FileUpload, bytes: FileBytes) async throws -> SharedFile {
        var query = [FilesAPI.Query.position: String(upload.position), FilesAPI.Query.name: upload.name]
        query[FilesAPI.Query.type] = upload.mediaType
        return try await connection.upload(
            FilesAPI.upload, path: .init(conversation: upload.conversationID, message: upload.messageID), query: query, bytes: bytes,
            size: upload.declaredSize, as: caller)
    }

    public func file(_ id: FileID) async throws -> SharedFile {
        try await connection.call(FilesAPI.file, path: .init(file: id), body: NoContent(), as: caller)
    }

    public func download(_ id: FileID, range: ByteRange?) async throws -> FileDownload {
        let file = try await file(id)
        let range = try FilesRules.range(range, of: file.size)
        let bytes = try await connection.download(FilesAPI.bytes, path: .init(file: id), range: (range.offset, range.count), as: caller)
        return FileDownload(file: file, range: range, bytes: bytes)
    }

    public func files(of messageID: MessageID, in conversationID: ConversationID) async throws -> [SharedFile] {
        try await connection.call(
            FilesAPI.messageFiles, path: .init(conversation: conversationID, message: messageID), body: NoContent(), as: caller
        ).files
    }

    public func files(in conversationID: ConversationID, before: FileID?, limit: Int) async throws -> [SharedFile] {
        var query = [FilesAPI.Query.limit: String(limit)]
        query[FilesAPI.Query.before] = before?.rawValue
        return try await connection.call(
            FilesAPI.conversationFiles, path: .init(conversation: conversationID), query: query, body: NoContent(), as: caller
        ).files
    }
}
