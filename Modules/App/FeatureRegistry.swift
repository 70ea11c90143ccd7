import AppContainer
import ArgumentParser
import AuthViews
import CLIKit
import ChatViews
import ConversationListViews
import FilesViews
import ProfileViews
import REPLKit
import SearchViews

// new-feature adds imports above this line

/// The feature plugins, in the order their commands are listed. Adding a feature is an import and
/// one line here (`swift run new-feature` writes both); the front ends list nothing by hand.
enum FeatureRegistry {
    typealias Plugin = CLIPlugin & REPLPlugin

    static var plugins: [any Plugin.Type] {
        [
            AuthFeature.self,
            ProfileFeature.self,
            ConversationListFeature.self,
            ChatFeature.self,
            SearchFeature.self,
            FilesFeature.self,
            // new-feature adds plugins above this line
        ]
    }

    /// The plugins enabled by the `features` setting.
    static func enabled(by settings: Settings) -> [any Plugin.Type] {
        plugins.filter { settings.enables($0.featureName) }
    }

    /// The features whose commands the command line offers (and `--help` lists), for the run
    /// under way: the launcher sets it from the settings around parsing; `nil` offers all. Task-
    /// local, so that runs side by side (tests) do not see each other's.
    @TaskLocal static var offered: Set<String>?

    /// The plugins whose commands the command line offers.
    static var offeredPlugins: [any Plugin.Type] {
        plugins.filter { offered?.contains($0.featureName) ?? true }
    }

    /// The plugin with a top-level command named `name`, offered or not.
    static func plugin(withCommand name: String) -> (any Plugin.Type)? {
        plugins.first { plugin in plugin.commands.contains { $0.configuration.commandName == name } }
    }

    /// The plugin whose command tree holds `command`.
    static func plugin(owning command: any ParsableCommand.Type) -> (any Plugin.Type)? {
        plugins.first { plugin in plugin.commands.contains { tree($0).contains { $0 == command } } }
    }

    private static func tree(_ command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        [command] + command.configuration.subcommands.flatMap(tree)
    }
}
