import ArgumentParser
import CLIKit
import Files
import Kernel
import REPLKit

/// Files' views, plugged into both front ends: `messageai files`, `save` and `open`, `/files`
/// anywhere, and a screen of its own where the feature runs alone.
public enum FilesFeature: CLIPlugin, REPLPlugin {
    public static let featureName = "files"

    public static let commands: [any ParsableCommand.Type] = [FilesCommand.self, SaveCommand.self, OpenCommand.self]

    @MainActor public static func screen(for route: Route, context: REPLContext) -> (any REPLScreen)? {
        guard case .feature(featureName, let argument) = route else { return nil }
        return FilesScreen(context: context, asked: argument)
    }

    /// The feature's own screen: where it starts alone, after any of the built-in features' screens.
    @MainActor public static func start(signedIn: Bool, context: REPLContext) async -> REPLStart? {
        signedIn ? REPLStart(.feature(featureName), rank: 6) : nil
    }

    @MainActor public static func commands(context: REPLContext) -> [REPLCommand] {
        [
            REPLCommand("files", arguments: "CHAT", summary: "list a conversation's files, newest first; /save N and /open N there") { chat in
                guard !chat.isEmpty else { return context.show("Say whose files: /files CHAT.") }
                context.navigate(.push(.feature(featureName, argument: chat)))
            }
        ]
    }
}
