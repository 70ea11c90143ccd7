import ArgumentParser
import CLIKit
import Files
import Kernel

/// `messageai open CHAT MESSAGE`: a message's files, saved in this user's cache and handed to the
/// desktop's opener.
struct OpenCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "open", abstract: "Open the files a message carries with the desktop's program for them.",
        discussion:
            "The files are saved in $XDG_CACHE_HOME/messageai/files (or ~/.cache/messageai/files) first, then handed to xdg-open (macOS: open). Without a desktop (no DISPLAY or WAYLAND_DISPLAY) it says where they were saved."
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name.") var chat: String
    @Argument(help: "The message's id (history --json or files show it).") var message: String

    func run(in context: CLIContext) async throws {
        let messageID: MessageID = try Validation.identifier(message, field: "MESSAGE")
        let conversation = try await context.lookup.conversationID(for: chat)
        let (files, opened) = try await context.lookup.openFiles(of: messageID, in: conversation)
        try context.emitEach(files.map(\.path), text: files.map { $0.openedLine(opened) })
    }
}
