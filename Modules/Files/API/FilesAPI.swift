import Files
import Kernel

/// Files' wire contract: an upload streams a file's bytes for a message before it is sent; a
/// download streams them back, whole or a `Range`, to the conversation's members. Served by
/// `FilesRoutes`, called by `RemoteFilesService`.
public enum FilesAPI {
    /// Uploads a file for a message (the request body is its bytes; `Content-Length` its size).
    public static let upload = Endpoint<ByteStream, SharedFile, PathParameters.ConversationMessage>(
        .put, "/v1/conversations/{conversation}/messages/{message}/files",
        "Upload a file for a message not sent yet: the body is its bytes; the same message and position again is the file stored first",
        query: [Query.position, Query.name, Query.type])
    /// What a file is.
    public static let file = Endpoint<NoContent, SharedFile, PathParameters.File>(.get, "/v1/files/{file}", "A file's name, type, size and SHA-256")
    /// A file's bytes, whole or the `Range` asked for (206).
    public static let bytes = Endpoint<NoContent, ByteStream, PathParameters.File>(
        .get, "/v1/files/{file}/bytes", "A file's bytes: whole, or the one range of a Range header (206; 416 past its end)")
    /// The files a message carries.
    public static let messageFiles = Endpoint<NoContent, FileList, PathParameters.ConversationMessage>(
        .get, "/v1/conversations/{conversation}/messages/{message}/files", "The files a message carries, in their order")
    /// A conversation's files, newest first.
    public static let conversationFiles = Endpoint<NoContent, FileList, PathParameters.Conversation>(
        .get, "/v1/conversations/{conversation}/files", "A conversation's files, newest first", query: [Query.before, Query.limit])

    /// Every Files endpoint.
    public static let endpoints = [upload.spec, file.spec, bytes.spec, messageFiles.spec, conversationFiles.spec]

    /// The query parameters Files' endpoints read.
    public enum Query {
        /// The file's place among its message's.
        public static let position = QueryParameter(
            "position", .integer(0...(Validation.maxFilesPerMessage - 1)), "the file's place among its message's, from 0 (default 0)")
        /// Most bytes of a name as the sender gives it (it is kept to `FilesRules.maxNameBytes`).
        public static let maxNameBytes = 1_024
        /// The file's name as the sender gives it.
        public static let name = QueryParameter(
            "name", .string(minLength: 1, maxLength: maxNameBytes), required: true, "its name (made safe: no path, no control characters)")
        /// Its media type as the sender gives it.
        public static let type = QueryParameter("type", .string(minLength: 1, maxLength: 255), "its media type (default: guessed from the name)")
        /// Where a page of files starts.
        public static let before = QueryParameter("before", .identifier, "the files older than this one")
        /// Most files on a page.
        public static let limit = QueryParameter("limit", .integer(1...FileList.maxFiles), "most files (default 50)")
    }
}

/// Files, as the server sends a list of them.
public struct FileList: WireType, Equatable {
    /// Most files one answer carries.
    public static let maxFiles = 200

    /// The files.
    public let files: [SharedFile]

    /// Creates the answer.
    public init(_ files: [SharedFile]) { self.files = files }

    public static let schema = WireSchema.object([("files", .array(SharedFile.schema, maxItems: maxFiles))], required: ["files"])
}

extension SharedFile: WireType {
    public static let schema = WireSchema.object(
        [
            ("id", .identifier), ("conversationID", .identifier), ("messageID", .identifier),
            ("position", .integer(0...(Validation.maxFilesPerMessage - 1))), ("ownerID", .identifier),
            ("name", .string(minLength: 1, maxLength: FilesRules.maxNameBytes)), ("mediaType", .string(minLength: 3, maxLength: 127)),
            ("size", .integer(0...Int.max)), ("sha256", .string(minLength: 64, maxLength: 64, pattern: "^[0-9a-f]{64}$")),
            ("createdAt", .timestamp),
        ],
        required: ["id", "conversationID", "messageID", "position", "ownerID", "name", "mediaType", "size", "sha256", "createdAt"])
}
