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
            "Each file is saved under its name (made safe: no path separators, no leading dot or dash, no control characters) in the current folder, or at --to for a message with one file (a folder: under its name there). An existing file is never overwritten without --force."
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name.") var chat: String
    @Argument(help: "The message's id (history --json or files show it).") var message: String
    @Option(help: "Where to save it: a path, or a folder.") var to: String?
    @Flag(help: "Overwrite a file that exists.") var force = false

    func run(in context: CLIContext) async throws {
        let messageID: MessageID = try Validation.identifier(message, field: "MESSAGE")
        let conversation = try await context.lookup.conversationID(for: chat)
        let saver = FileSaver(service: try context.factory(FilesFactory.self).files)
        let saved = try await saver.save(messageID, in: conversation, to: to, force: force)
        try context.emitEach(saved.map(\.file), text: saved.map { SavedFile(name: $0.file.name, path: $0.path).savedLine })
    }
}
