import Kernel

/// A file a message carries, as its sender shared it (Files keeps the bytes): what a reader sees
/// of it before asking for them.
public struct Attachment: Codable, Equatable, Sendable, Identifiable {
    /// The file's id, to download it with.
    public let id: FileID
    /// Its name, made safe by Files (no path separators, no control characters).
    public let name: String
    /// Its media type.
    public let mediaType: String
    /// Its size in bytes.
    public let size: Int64
    /// The SHA-256 of its bytes, in lowercase hexadecimal: what a reader checks a download against.
    public let sha256: String

    /// Creates an attachment.
    public init(id: FileID, name: String, mediaType: String, size: Int64, sha256: String) {
        self.id = id
        self.name = name
        self.mediaType = mediaType
        self.size = size
        self.sha256 = sha256
    }

    /// About how many bytes it takes on the wire: what it adds to its message's fan-out.
    public var wireBytes: Int { 2 * Validation.maxIdentifierBytes + name.utf8.count + mediaType.utf8.count + 64 + 96 }
}
