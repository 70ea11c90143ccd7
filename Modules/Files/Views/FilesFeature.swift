import ArgumentParser
import CLIKit
import Kernel
import REPLKit
import Files

/// Files's views, plugged into both front ends.
public enum FilesFeature: CLIPlugin, REPLPlugin {
    public static let featureName = "files"

    public static let commands: [any ParsableCommand.Type] = [FilesCommand.self]

    @MainActor public static func screen(for route: Route, context: REPLContext) -> (any REPLScreen)? {
        route == .feature(featureName) ? FilesScreen(context: context) : nil
    }

    /// The feature's own screen: where it starts alone, after any of the built-in features' screens.
    @MainActor public static func start(signedIn: Bool, context: REPLContext) async -> REPLStart? {
        REPLStart(.feature(featureName), rank: 5)
    }

    @MainActor public static func commands(context: REPLContext) -> [REPLCommand] {
        [
            REPLCommand("files", arguments: "[TITLE]", summary: "list Files items, or add one") { title in
                let model = context.factory(FilesFactory.self).makeFilesViewModel()
                if title.isEmpty {
                    await model.load()
                } else {
                    await model.add(title: title)
                    if let error = model.added.error { return context.showError(error) }
                }
                await context.present(model.items) { items in
                    items.map { "\($0.id). " + TerminalText.line($0.title) }.forEach(context.show)
                }
            },
        ]
    }
}
