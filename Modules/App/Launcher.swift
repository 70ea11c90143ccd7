import AppContainer
import ArgumentParser
import CLIKit
import Foundation
import Kernel

/// Runs `messageai` with given arguments, environment and console, and returns the exit code.
/// The executable calls it with the process's own; tests call it with theirs.
@MainActor
public enum Launcher {
    /// Parses the command line, builds the container from the settings and runs the command.
    /// Commands that are not feature commands (help, a group without a default) run as
    /// ArgumentParser runs them: they end by throwing the text to show.
    public static func run(arguments: [String], environment: [String: String], console: Console) async -> Int32 {
        for unknown in Settings.table.unknownVariables(in: environment) {
            console.printError(console.styled("warning: ", .yellow) + TerminalText.line(unknown.warning))
        }
        let global = (try? LeadingOptions.parse(arguments))?.global ?? GlobalOptions()
        let settings = Result<Settings, any Error> { try loadSettings(global, environment: environment) }
        let offered = (try? settings.get()).map { Set(FeatureRegistry.enabled(by: $0).map { $0.featureName }) }
        return await FeatureRegistry.$offered.withValue(offered) {
            await parseAndRun(arguments: arguments, settings: settings, environment: environment, console: console)
        }
    }

    /// The global options wherever they are on the command line, parsed before the subcommand is
    /// known: the settings they select decide which commands are offered. The rest is left for
    /// the command's own parse (help flags too, so that the help shows the offered commands).
    private struct LeadingOptions: ParsableCommand {
        static let configuration = CommandConfiguration(helpNames: [])
        @OptionGroup var global: GlobalOptions
        @Argument(parsing: .allUnrecognized) var rest: [String] = []
    }

    /// `run` once the features the command line offers are known.
    private static func parseAndRun(
        arguments: [String], settings: Result<Settings, any Error>, environment: [String: String], console: Console
    ) async -> Int32 {
        var command: any ParsableCommand
        do {
            command = try RootCommand.parseAsRoot(movingGlobalOptionsLast(arguments))
            if command is RootCommand, let frontend = try interactiveFrontend(settings.get(), console: console) {
                command = try RootCommand.parseAsRoot([frontend] + movingGlobalOptionsLast(arguments))
            }
            if !(command is any FeatureCommand || command is ConfigCommand) { try command.run() }
        } catch let error as AppError {
            return report(error, console: console)
        } catch {
            let code = RootCommand.exitCode(for: error)
            if let name = movingGlobalOptionsLast(arguments).first, let plugin = FeatureRegistry.plugin(withCommand: name),
                !FeatureRegistry.offeredPlugins.contains(where: { $0 == plugin })
            {
                return report(AppError(.usage, "the \(plugin.featureName) feature is disabled by the 'features' setting"), console: console)
            }
            if code == .success {
                console.print(RootCommand.fullMessage(for: error))
            } else {
                // One line, like every other error; ArgumentParser's messages quote what was typed.
                let message = RootCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid command line"
                console.printError(console.styled("error: ", .red) + TerminalText.line(message) + " (see `messageai --help`)")
            }
            return code.rawValue
        }
        do {
            if let config = command as? ConfigCommand {
                try config.show(try settings.get(), console: console)
            } else if let feature = command as? any FeatureCommand {
                try await run(
                    feature, settings: settings.get(), token: try token(for: feature, environment: environment, console: console), console: console)
            }
            return 0
        } catch {
            return report(AppError(error), console: console)
        }
    }

    /// Prints `error` as one line on standard error; returns its exit code.
    private static func report(_ error: AppError, console: Console) -> Int32 {
        console.printError(console.styled("error: ", .red) + TerminalText.line(error.message))
        return error.kind.exitCode
    }

    /// The process entry point.
    public static func main() async -> Never {
        TerminalState.install()
        let environment = ProcessInfo.processInfo.environment
        let code = await run(
            arguments: Array(CommandLine.arguments.dropFirst()), environment: environment,
            console: StandardConsole.make(environment: environment))
        exit(code)
    }

    private static func run(_ command: any FeatureCommand, settings: Settings, token: String?, console: Console) async throws {
        if let plugin = FeatureRegistry.plugin(owning: type(of: command)), !settings.enables(plugin.featureName) {
            throw AppError(.usage, "the \(plugin.featureName) feature is disabled by the 'features' setting")
        }
        let container = try await AppContainer(settings: settings, token: token)
        let context = CLIContext(
            console: console, json: command.global.json, lookup: ContainerLookup(container: container),
            container: container)
        try await command.run(in: context)
    }

    /// The API token `command` acts with: the first line of standard input with `--token-stdin`,
    /// else `MESSAGEAI_TOKEN`; `nil` for the profile's session.
    /// - Throws: `.usage` when `--token-stdin` finds no line.
    private static func token(for command: any FeatureCommand, environment: [String: String], console: Console) throws -> String? {
        guard command.global.tokenStdin else { return environment[AppContainer.tokenVariable].flatMap { $0.isEmpty ? nil : $0 } }
        guard let line = try console.readLine()?.trimmingCharacters(in: .whitespaces), !line.isEmpty else {
            throw AppError(.usage, "--token-stdin reads the token from standard input, which had none")
        }
        return line
    }

    /// With no subcommand, the configured front end runs: `frontend` if set anywhere (`repl` or
    /// `tui`; `cli` shows the help), else the REPL on a terminal and the help otherwise.
    private static func interactiveFrontend(_ settings: Settings, console: Console) -> String? {
        let frontend = settings.entry(.frontend)
        if frontend.source == "default" { return console.isInteractive ? "repl" : nil }
        return frontend.value == "cli" ? nil : frontend.value
    }

    /// The settings `global` selects, with the `features` names checked against the registry
    /// (the loader does not know which features exist).
    private static func loadSettings(_ global: GlobalOptions, environment: [String: String]) throws -> Settings {
        let settings = try Settings.load(commandLine: global.configurationOverrides, configFile: global.config, environment: environment)
        let known = FeatureRegistry.plugins.map { $0.featureName.lowercased() }
        if let unknown = settings.features.first(where: { $0 != "all" && !known.contains($0) }) {
            throw AppError(
                .usage,
                "configuration key 'features' (from \(settings.entry(.features).source)): unknown feature "
                    + "\(AppError.quoting(unknown)); the features are \(known.joined(separator: ", ")) (or all)")
        }
        return settings
    }

    /// Moves the global options given before the subcommand to the end, where the subcommand's
    /// option group parses them.
    private static func movingGlobalOptionsLast(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first, first.hasPrefix("--") {
            let name = String(first.prefix { $0 != "=" })
            if GlobalOptions.flagNames.contains(name) || first.contains("=") && GlobalOptions.valueOptionNames.contains(name) {
                leading.append(first)
                rest = rest.dropFirst()
            } else if GlobalOptions.valueOptionNames.contains(name), rest.count >= 2 {
                leading += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else {
                break
            }
        }
        return Array(rest) + leading
    }
}
