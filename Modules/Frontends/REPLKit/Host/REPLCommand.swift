/// A slash command of the REPL (`/open`, `/new`, …).
@MainActor
public struct REPLCommand {
    /// The name without the slash.
    public let name: String
    /// What follows the name, for `/help` (e.g. `NAME|N`).
    public let arguments: String
    /// One line for `/help`.
    public let summary: String
    /// Runs the command with the rest of the line.
    public let run: @MainActor (String) async -> Void

    /// Creates a command.
    public init(_ name: String, arguments: String = "", summary: String, run: @escaping @MainActor (String) async -> Void) {
        self.name = name
        self.arguments = arguments
        self.summary = summary
        self.run = run
    }
}
