import ArgumentParser
import CLIKit
import Files
import Kernel
import REPLKit

/// Files' views, plugged into both front ends: a conversation's files, and saving one.
public enum FilesFeature: CLIPlugin, REPLPlugin {
    public static let featureName = "files"

    public static let commands: [any ParsableCommand.Type] = [FilesCommand.self, SaveCommand.self]

    @MainActor public static func screen(for route: Route, context: REPLContext) -> (any REPLScreen)? { nil }

    /// No screen of its own: files are a conversation's.
    @MainActor public static func start(signedIn: Bool, context: REPLContext) async -> REPLStart? { nil }

    @MainActor public static func commands(context: REPLContext) -> [REPLCommand] {
        [
            REPLCommand("files", arguments: "CHAT", summary: "list a conversation's files, newest first") { chat in
                do {
                    let conversation = try await context.lookup.conversationID(for: chat)
                    let model = context.factory(FilesFactory.self).makeFilesViewModel(conversationID: conversation)
                    await model.load()
                    await context.present(model.files) { files in
                        (files.isEmpty ? ["No files."] : files.map(FileText.line)).forEach(context.show)
                    }
                } catch {
                    context.showError(AppError(error))
                }
            }
        ]
    }
}
