import AppContainer
import ArgumentParser
import CLIKit
import SettingsKit

/// `messageai`: the root of the command tree. Its subcommands come from the feature plugins,
/// plus `config`, `repl`, `tui` and `notify`.
struct RootCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "messageai",
            abstract: "MessageAI: real-time messaging in your terminal.",
            discussion: """
                With no subcommand the configured front end runs (the REPL on a terminal). \
                Global options (--backend, --server, --config, --profile, --features, --json) go before or after the subcommand.

                Exit codes: 0 ok, 64 usage, 65 invalid input, 66 not found, 67 conflict, 69 backend unavailable, \
                70 internal error, 74 output could not be written, 75 rate-limited, 76 not a member, 77 not signed in, 78 wrong email or password, \
                79 gone (a cursor of another store: start again without it); \
                129/130/143 ended by SIGHUP/Ctrl-C/SIGTERM (the terminal is put back as it was).

                \(Settings.table.help)
                """,
            subcommands: FeatureRegistry.offeredPlugins.flatMap { $0.commands } + [
                ConfigCommand.self, ReplSubcommand.self, TuiSubcommand.self, NotifyCommand.self, ExportCommand.self,
            ]
        )
    }
    @OptionGroup var global: GlobalOptions
}
