import AppContainer
import ArgumentParser
import CLIKit
import Foundation
import Kernel

/// `messageai export [--to FILE]`: everything of yours as one JSON document (`AccountExport`).
struct ExportCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write everything of yours as one JSON document (to standard output, or a file).",
        discussion: """
            Your account and profile, and each conversation you are a member of: its title, its members and their names, \
            its messages as you can read them (newest first, with reactions and the files' names, types, sizes and \
            SHA-256; `messageai save` fetches the files themselves) and its read receipts. Written as it is read, a page \
            at a time. With --to, the file is made readable by you alone and appears only once whole; an existing \
            file is kept unless --force. Format: {"format":"messageai-export","version":1,"exportedAt","account",\
            "profile","conversations":[{"id","title","isGroup","members":[{"id","name"}],"messages":[...],"receipts":[...]}]}.
            """)
    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file")) var to: String?
    @Flag(help: "Replace the file if it exists.") var force = false

    func run(in context: CLIContext) async throws {
        let container = try context.factory(AppContainer.self)
        let console = context.console
        let export = AccountExport(container: container).chunks { conversations, messages in
            if conversations % 50 == 0 { console.printError("exported \(conversations) conversations, \(messages) messages so far") }
        }
        guard let to else {
            for try await chunk in export { console.printRaw(String(decoding: chunk, as: UTF8.self)) }
            return
        }
        let path = (to as NSString).expandingTildeInPath
        if !force, FileManager.default.fileExists(atPath: path) {
            throw AppError(.conflict, "\(TerminalText.line(path)) exists already; --force replaces it")
        }
        let part = path + ".part-\(UUID().uuidString.prefix(8))"
        let bytes = try await FileStreams.create(part, mode: 0o600, from: export)
        guard rename(part, path) == 0 else {
            unlink(part)
            throw AppError(.unavailable, "\(TerminalText.line(path)) cannot be written: \(String(cString: strerror(errno)))")
        }
        try context.emit(["path": path, "bytes": String(bytes)], text: ["Exported to \(TerminalText.line(path)) (\(FileStreams.size(bytes)))."])
    }
}
