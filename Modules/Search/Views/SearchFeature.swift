import ArgumentParser
import CLIKit
import Kernel
import REPLKit
import Search

/// Search's views, plugged into both front ends: `messageai search` and `messageai mentions`,
/// `/search` and `/mentions` anywhere, and a screen of its own where the feature runs alone.
public enum SearchFeature: CLIPlugin, REPLPlugin {
    public static let featureName = "search"

    public static let commands: [any ParsableCommand.Type] = [SearchCommand.self, MentionsCommand.self]

    @MainActor public static func screen(for route: Route, context: REPLContext) -> (any REPLScreen)? {
        guard case .feature(featureName, let argument) = route else { return nil }
        return SearchScreen(context: context, asked: argument.map(SearchScreen.Asked.init(argument:)))
    }

    /// The feature's own screen: where it starts alone, after any of the built-in features' screens.
    @MainActor public static func start(signedIn: Bool, context: REPLContext) async -> REPLStart? {
        signedIn ? REPLStart(.feature(featureName), rank: 5) : nil
    }

    @MainActor public static func commands(context: REPLContext) -> [REPLCommand] {
        [
            REPLCommand("search", arguments: "WORDS", summary: "find messages of your conversations (\"exact words\", prefix*); /go N opens result N")
            { query in
                guard !query.isEmpty else { return context.show("Say what to find: /search WORDS.") }
                context.navigate(.push(.feature(featureName, argument: SearchScreen.Asked.search(query).argument)))
            },
            REPLCommand("mentions", summary: "messages that mention you (@Name), newest last; /go N opens one") { _ in
                context.navigate(.push(.feature(featureName, argument: SearchScreen.Asked.mentions.argument)))
            },
        ]
    }
}
