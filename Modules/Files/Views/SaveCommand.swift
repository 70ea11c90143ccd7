import ArgumentParser
import CLIKit
import Files
import Foundation
import Kernel

/// `messageai save CHAT MESSAGE [--to PATH] [--force]`: a message's files, saved.
struct SaveCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "save", abstract: "Save the files a message carries.",
        discussion:
            "Each file is saved under its name (made safe: no path separators, no leading dot or dash, no control characters) in the current folder, or at --to for a message with one file (a folder: under its name there). An existing file is never overwritten without --force.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name.") var chat: String
    @Argument(help: "The message's id (history --json or files show it).") var message: String
    @Option(help: "Where to save it: a path, or a folder.") var to: String?
    @Flag(help: "Overwrite a file that exists.") var force = false

    func run(in context: CLIContext) async throws {
        let messageID: MessageID = try Validation.identifier(message, field: "MESSAGE")
        let conversation = try await context.lookup.conversationID(for: chat)
        let service = try context.factory(FilesFactory.self).files
        let files: [SharedFile] = try await service.files(of: messageID, in: conversation)
        guard !files.isEmpty else { throw AppError(.notFound, "message \(AppError.quoting(messageID.rawValue)) carries no file") }
        guard to == nil || files.count == 1 || Self.isFolder(to!) else {
            throw AppError(.usage, "the message carries \(files.count) files: --to must name a folder")
        }
        var saved: [String] = []
        for file in files {
            let path = Self.destination(for: file, to: to)
            try await Self.save(try await service.download(file.id, range: nil), to: path, force: force)
            saved.append(path)
        }
        let lines = zip(files, saved).map { file, path in "Saved \(TerminalText.line(file.name)) to \(TerminalText.line(path))." }
        try context.emitEach(files, text: lines)
    }

    private static func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }

    /// Where `file` goes: `to` itself, or its safe name in `to` (a folder) or the current folder.
    private static func destination(for file: SharedFile, to: String?) -> String {
        let name = FilesRules.name(file.name)
        guard let to else { return name }
        return isFolder(to) ? (to as NSString).appendingPathComponent(name) : to
    }

    /// Writes `download` to `path`: next to it first, then renamed over it, so that a save cut
    /// short leaves no half file under the name.
    private static func save(_ download: FileDownload, to path: String, force: Bool) async throws {
        guard force || !FileManager.default.fileExists(atPath: path) else {
            throw AppError(.conflict, "\(path) exists; --force overwrites it")
        }
        let part = path + ".part-" + FileID.random().rawValue
        try await FileStreams.create(part, mode: 0o644, from: download.bytes)
        guard rename(part, path) == 0 else {
            unlink(part)
            throw AppError(.unavailable, "\(path) cannot be written: \(String(cString: strerror(errno)))")
        }
    }
}
