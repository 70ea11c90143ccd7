import AppContainer
import ArgumentParser
import CLIKit
import SettingsKit

/// `messageai config`: each key's effective value and where it came from. It reads the settings
/// only, so it works even when the backend cannot be opened.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Show the effective configuration and where each value came from.",
        discussion: "Precedence: command line > MESSAGEAI_* environment > config file > defaults.\n\n\(Settings.table.help)")

    @OptionGroup var global: GlobalOptions

    /// One key of the output.
    struct Row: Encodable {
        let key: String
        let value: String?
        let source: String
        /// The environment variable that sets it.
        let variable: String
    }

    @MainActor func show(_ settings: Settings, console: Console) throws {
        let rows = settings.entries.map {
            Row(
                key: $0.key.name, value: settings.effectiveValue($0.key), source: $0.entry.source,
                variable: Settings.table.environmentVariable(of: $0.key))
        }
        let width = rows.map(\.key.count).max() ?? 0
        if global.json {
            for row in rows { console.print(try JSONLines.encode(row)) }
            return
        }
        for row in rows {
            console.print(
                row.key.padding(toLength: width + 2, withPad: " ", startingAt: 0) + (row.value ?? "(unset)")
                    + console.styled("  (\(row.source))", .dim))
        }
    }
}
