import AppContainer
import ArgumentParser
import CLIKit

/// `messageai config`: each key's effective value and where it came from.
struct ConfigCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Show the effective configuration and where each value came from.",
        discussion: "Precedence: command line > MESSAGEAI_* environment > config file > defaults.")
    @OptionGroup var global: GlobalOptions

    /// One key of the output.
    struct Row: Encodable {
        let key: String
        let value: String?
        let source: String
    }

    func run(in context: CLIContext) async throws {
        let settings = try context.factory(AppContainer.self).settings
        let rows = settings.entries.map { Row(key: $0.key.name, value: $0.entry.value, source: $0.entry.source) }
        let width = rows.map(\.key.count).max() ?? 0
        try context.emitEach(rows, text: rows.map { row in
            row.key.padding(toLength: width + 2, withPad: " ", startingAt: 0) + (row.value ?? "(unset)")
                + context.console.styled("  (\(row.source))", .dim)
        })
    }
}
