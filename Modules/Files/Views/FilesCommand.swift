import ArgumentParser
import CLIKit
import Files
import Kernel

/// `messageai files CHAT [--before FILE] [--limit N]`: a conversation's files, newest first.
struct FilesCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "files", abstract: "List a conversation's files, newest first.",
        discussion: "Each line: the file's id, name, type and size, and the message that carries it (save CHAT MESSAGE saves it).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name.") var chat: String
    @Option(help: "List the files older than this one (a file id from a previous page).") var before: String?
    @Option(help: "How many files (1–200).") var limit: Int = 50

    func run(in context: CLIContext) async throws {
        guard (1...200).contains(limit) else { throw AppError(.usage, "--limit must be from 1 to 200") }
        let before: FileID? = try before.map { try Validation.identifier($0, field: "--before") }
        let conversation = try await context.lookup.conversationID(for: chat)
        let service = try context.factory(FilesFactory.self).files
        let files: [SharedFile] = try await service.files(in: conversation, before: before, limit: limit)
        try context.emitEach(files, text: files.isEmpty ? ["No files."] : files.map(FileText.line))
    }
}

/// How a file reads in text.
enum FileText {
    /// `id  name  type  size  (message M)`: the sender's name and type filtered for the terminal.
    static func line(_ file: SharedFile) -> String {
        "\(file.id)  \(TerminalText.line(file.name))  \(TerminalText.line(file.mediaType))  \(FileStreams.size(file.size))  "
            + "(message \(file.messageID))"
    }
}
