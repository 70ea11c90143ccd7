import Foundation
import Kernel

/// A file shared in a conversation: what its sender uploaded for one of their messages, and what
/// the store knows of its bytes. Its name and type are the sender's, made safe
/// (`FilesRules.name`, `FilesRules.mediaType`); its size and digest are the store's, counted as
/// the bytes came.
public struct SharedFile: Codable, Equatable, Sendable, Identifiable {
    /// The store's random id.
    public let id: FileID
    /// The conversation it is shared in.
    public let conversationID: ConversationID
    /// The message that carries it once sent (the sender chooses the message's id before sending).
    public let messageID: MessageID
    /// Its place among that message's files, from 0.
    public let position: Int
    /// Who uploaded it.
    public let ownerID: UserID
    /// Its name, safe to show and to save under (no path separators, no leading dot or dash, no
    /// control characters).
    public let name: String
    /// Its media type (`image/png`), as the sender said or guessed from its name.
    public let mediaType: String
    /// Its size in bytes.
    public let size: Int64
    /// The SHA-256 of its bytes, in lowercase hexadecimal.
    public let sha256: String
    /// When it was uploaded (the store's time).
    public let createdAt: Date

    /// Creates a file value.
    public init(
        id: FileID, conversationID: ConversationID, messageID: MessageID, position: Int, ownerID: UserID, name: String, mediaType: String,
        size: Int64, sha256: String, createdAt: Date
    ) {
        self.id = id
        self.conversationID = conversationID
        self.messageID = messageID
        self.position = position
        self.ownerID = ownerID
        self.name = name
        self.mediaType = mediaType
        self.size = size
        self.sha256 = sha256
        self.createdAt = createdAt
    }

    /// Whether it is a picture a terminal may draw.
    public var isPicture: Bool { mediaType.hasPrefix("image/") }
}

/// What a sender says of a file before its bytes: where it goes, and its name and type as they
/// give them (checked by `FilesRules`).
public struct FileUpload: Equatable, Sendable {
    /// The conversation it is shared in.
    public let conversationID: ConversationID
    /// The message that will carry it.
    public let messageID: MessageID
    /// Its place among that message's files, from 0: with the message, what makes a retried upload
    /// the same file.
    public let position: Int
    /// Its name as the sender gives it (a path's last part, typically).
    public let name: String
    /// Its media type as the sender gives it, if they do.
    public let mediaType: String?
    /// How many bytes the sender says it has, if they do (HTTP's `Content-Length`): refused at once
    /// past a limit, and checked against what comes.
    public let declaredSize: Int64?

    /// Creates an upload.
    public init(
        conversationID: ConversationID, messageID: MessageID, position: Int = 0, name: String, mediaType: String? = nil,
        declaredSize: Int64? = nil
    ) {
        self.conversationID = conversationID
        self.messageID = messageID
        self.position = position
        self.name = name
        self.mediaType = mediaType
        self.declaredSize = declaredSize
    }
}

/// A file's bytes as they travel: chunks, in order, from a file on disk, a request's body or a
/// store. Neither end holds a whole file.
public typealias FileBytes = any AsyncSequence<[UInt8], any Error> & Sendable

/// The part of a file a reader asks for (HTTP's `Range`): `count` bytes from `offset`.
public struct ByteRange: Equatable, Sendable {
    /// The first byte.
    public let offset: Int64
    /// How many bytes.
    public let count: Int64

    /// Creates a range.
    public init(offset: Int64, count: Int64) {
        self.offset = offset
        self.count = count
    }

    /// The whole of a file of `size` bytes.
    public static func whole(_ size: Int64) -> ByteRange { ByteRange(offset: 0, count: size) }
}

/// A file being read: what it is, which of its bytes come, and the bytes.
public struct FileDownload: Sendable {
    /// The file.
    public let file: SharedFile
    /// The bytes that come (the whole file unless a range was asked for).
    public let range: ByteRange
    /// The bytes, in chunks.
    public let bytes: FileBytes

    /// Creates a download.
    public init(file: SharedFile, range: ByteRange, bytes: FileBytes) {
        self.file = file
        self.range = range
        self.bytes = bytes
    }
}
