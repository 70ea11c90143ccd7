import Foundation
import Kernel

/// Files' decisions, as plain functions of what a store and Chat know, written once for every
/// backend: what a sender's name and type become, how big a file may be, who may read one.
public enum FilesRules {
    /// Longest name a file keeps, in UTF-8 bytes (what most file systems take).
    public static let maxNameBytes = 255
    /// Longest media type, in bytes (RFC 6838's limit for type and subtype together).
    public static let maxMediaTypeBytes = 127
    /// The name a file gets when nothing of the sender's is left.
    public static let fallbackName = "file"
    /// How long an upload may wait for the message that carries it, and a part-written file for its
    /// end, before the clean-up pass removes it.
    public static let unsentLifetime: Duration = .seconds(3_600)

    /// The sender's `raw` name made safe to show and to save under: its last path part, without
    /// control or formatting characters (NUL, escapes, bidirectional overrides), path separators
    /// made `_`, no leading dot, dash or space, at most `maxNameBytes`; `fallbackName` when
    /// nothing is left.
    public static func name(_ raw: String) -> String {
        let scalars = raw.unicodeScalars.compactMap { scalar -> Unicode.Scalar? in
            if scalar == "/" || scalar == "\\" { return "_" }
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: return nil
            default: return scalar
            }
        }
        var name = Substring(String(String.UnicodeScalarView(scalars)))
        while let first = name.first, first == "." || first == "-" || first == "_" || first.isWhitespace { name = name.dropFirst() }
        while let last = name.last, last.isWhitespace || last == "." { name = name.dropLast() }
        var bytes = 0
        if let cut = name.firstIndex(where: { character in
            bytes += character.utf8.count
            return bytes > maxNameBytes
        }) {
            name = name[..<cut]
        }
        return name.isEmpty ? fallbackName : String(name)
    }

    /// The media type a file is stored with: the sender's `raw` one when it is a well-formed
    /// `type/subtype` (lowercased, parameters dropped), else one guessed from `name`'s extension,
    /// else `application/octet-stream`.
    public static func mediaType(_ raw: String?, name: String) -> String {
        if let raw, let type = wellFormed(raw) { return type }
        let ext = name.split(separator: ".").count > 1 ? name.split(separator: ".").last.map { $0.lowercased() } ?? "" : ""
        return guesses[ext] ?? "application/octet-stream"
    }

    /// `raw` as a media type, or `nil` when it is not `token/token`.
    private static func wellFormed(_ raw: String) -> String? {
        let type = raw.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        let parts = type.split(separator: "/", omittingEmptySubsequences: false)
        let token = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$&-^_.+")
        guard type.utf8.count <= maxMediaTypeBytes, parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(token.contains) })
        else { return nil }
        return type
    }

    private static let guesses: [String: String] = [
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "svg": "image/svg+xml", "txt": "text/plain", "md": "text/markdown", "csv": "text/csv", "json": "application/json",
        "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar",
        "mp3": "audio/mpeg", "ogg": "audio/ogg", "wav": "audio/wav", "mp4": "video/mp4", "webm": "video/webm",
    ]

    /// Checks a file of `size` bytes (so far, or as declared) against `limits`, with `stored`
    /// bytes its sender keeps already.
    /// - Throws: `.forbidden` when files are off; `.tooLarge` past the size limit or the quota.
    public static func allow(_ size: Int64, stored: Int64, limits: FileLimits) throws {
        guard limits.maxBytes > 0 else { throw AppError(.forbidden, "files are turned off here (files.maxBytes is 0)") }
        guard size <= limits.maxBytes else {
            throw AppError(.tooLarge, "the file is larger than the limit of \(FileStreams.size(limits.maxBytes)) (files.maxBytes)")
        }
        if let quota = limits.quota, stored + size > quota {
            throw AppError(
                .tooLarge, "your files would take more than your quota of \(FileStreams.size(quota)); delete some messages with files first")
        }
    }

    /// Whether `reader` may read `file`: a member of its conversation (`members`, `nil` when it
    /// does not exist), once its message carries it; before that, its sender alone. Any other
    /// reader is told there is no such file, so that an id reveals nothing.
    public static func readable(_ file: SharedFile, by reader: UserID, members: [UserID]?, carried: Bool) -> Bool {
        guard members?.contains(reader) == true else { return false }
        return carried || file.ownerID == reader
    }

    /// The part of a file of `size` bytes a reader gets for `asked` (the whole file without; a
    /// negative offset counts back from the end, as HTTP's suffix ranges do), cut at its end.
    /// - Throws: `.invalidInput` for a range that starts past the end (HTTP 416's case).
    public static func range(_ asked: ByteRange?, of size: Int64) throws -> ByteRange {
        guard let asked else { return .whole(size) }
        if asked.offset < 0 {
            let count = min(-asked.offset, size)
            return ByteRange(offset: size - count, count: count)
        }
        guard asked.count >= 0, asked.offset < size || (size == 0 && asked.offset == 0) else {
            throw AppError(.invalidInput, "the range starts at byte \(asked.offset) of a file of \(size) bytes")
        }
        return ByteRange(offset: asked.offset, count: min(asked.count, size - asked.offset))
    }

    /// What every refused read is told: the same as for an id that does not exist.
    public static func noFile(_ id: FileID) -> AppError { AppError(.notFound, "no file \(AppError.quoting(id.rawValue))") }
}

/// How big files may be where they are stored: per file, and per person.
public struct FileLimits: Equatable, Sendable {
    /// Most bytes of one file; 0 turns files off (`files.maxBytes`).
    public let maxBytes: Int64
    /// Most bytes of files one person keeps, or `nil` for no quota (one person's own store).
    public let quota: Int64?

    /// 100 MiB a file.
    public static let defaultMaxBytes: Int64 = 100 << 20
    /// 1 GiB a person, on a server.
    public static let defaultQuota: Int64 = 1 << 30

    /// Creates limits.
    public init(maxBytes: Int64 = defaultMaxBytes, quota: Int64? = nil) {
        self.maxBytes = maxBytes
        self.quota = quota
    }
}
