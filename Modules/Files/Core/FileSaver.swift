import Foundation
import Kernel

/// Saves the files a message carries where a person asks: each under its safe name
/// (`FilesRules.name`, applied again here, whoever the server is) in a folder, or at a path for a
/// message of one file. A file that exists is never overwritten unless forced, and a save cut
/// short leaves no half file under the name: the bytes go next to it first, then are renamed.
/// `messageai save` and `open`, and the REPL's `/save` and `/open`, all save this way.
public struct FileSaver: Sendable {
    private let service: any FilesService

    /// A saver of what `service` downloads.
    public init(service: any FilesService) { self.service = service }

    /// Saves the files of message `messageID` of `conversationID` to `destination` (a folder, a
    /// path for one file, or the current folder without) and returns each with where it went.
    /// With `force`, a file there is replaced.
    /// - Throws: `.notFound` for a message with no file the caller may read; `.usage` for a path
    ///   that is no folder given for several files; `.conflict` for a file there without `force`;
    ///   `.unavailable` when the file cannot be written.
    public func save(_ messageID: MessageID, in conversationID: ConversationID, to destination: String?, force: Bool) async throws -> [(
        file: SharedFile, path: String
    )] {
        let files = try await service.files(of: messageID, in: conversationID)
        guard !files.isEmpty else { throw AppError(.notFound, "message \(AppError.quoting(messageID.rawValue)) carries no file") }
        let folder = destination.map(Self.isFolder) ?? true
        guard folder || files.count == 1 else {
            throw AppError(.usage, "the message carries \(files.count) files: the destination must be a folder")
        }
        var saved: [(SharedFile, String)] = []
        for file in files {
            let name = FilesRules.name(file.name)
            let path = folder ? destination.map { ($0 as NSString).appendingPathComponent(name) } ?? name : destination ?? name
            try await write(try await service.download(file.id, range: nil), to: path, force: force)
            saved.append((file, path))
        }
        return saved
    }

    /// Writes `download` to `path`: to a file of its own beside it first, renamed over `path`
    /// once whole.
    private func write(_ download: FileDownload, to path: String, force: Bool) async throws {
        guard force || !FileManager.default.fileExists(atPath: path) else {
            throw AppError(.conflict, "\(path) exists; save elsewhere, or overwrite it with --force")
        }
        let part = path + ".part-" + FileID.random().rawValue
        try await FileStreams.create(part, mode: 0o644, from: download.bytes)
        guard rename(part, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(part)
            throw AppError(.unavailable, "\(path) cannot be written: \(reason)")
        }
    }

    private static func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }
}
