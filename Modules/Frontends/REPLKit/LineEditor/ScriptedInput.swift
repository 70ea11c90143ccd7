import CLIKit

/// Input for a REPL whose standard input is not a terminal: one command per line, plain output,
/// no prompts, so that sessions can be scripted and tested.
@MainActor
public final class ScriptedInput: REPLInput {
    private var lines: AsyncStream<InputLine>.AsyncIterator
    private let console: Console
    public var completer: (@MainActor (String) -> [String])?

    /// Reads lines from `lines` and prints through `console`.
    public init(lines: AsyncStream<InputLine>, console: Console) {
        self.lines = lines.makeAsyncIterator()
        self.console = console
    }

    public func readLine(prompt: String) async -> String? { await nextLine() }
    public func readSecret(prompt: String) async -> String? { await nextLine() }
    public func printAbove(_ text: String) { console.print(text) }

    /// The next line; a refused one (too long, not UTF-8) is reported and skipped.
    private func nextLine() async -> String? {
        var iterator = lines
        defer { lines = iterator }
        while let line = await iterator.next(isolation: #isolation) {
            switch line {
            case .text(let text): return text
            case .refused(let error): console.printError("error: " + TerminalText.line(error.message))
            }
        }
        return nil
    }
}
