import Foundation

/// The front ends' only door to the terminal: output, errors, input lines and secrets.
/// Tests build one over strings; the app builds one over the process's standard streams.
@MainActor
public final class Console {
    /// True when input and output are an interactive terminal.
    public let isInteractive: Bool
    /// True when output may carry ANSI colours (a terminal, and no `NO_COLOR`).
    public let usesColor: Bool
    private let write: @MainActor (String) -> Void
    private let writeError: @MainActor (String) -> Void
    private let readInputLine: @MainActor () -> String?
    private let readSecretLine: @MainActor (String) -> String?
    private let lines: @MainActor () -> AsyncStream<String>
    private let bytes: @MainActor () -> AsyncStream<UInt8>

    /// Creates a console from its channels.
    public init(
        isInteractive: Bool,
        usesColor: Bool,
        write: @escaping @MainActor (String) -> Void,
        writeError: @escaping @MainActor (String) -> Void,
        readLine: @escaping @MainActor () -> String?,
        readSecret: @escaping @MainActor (String) -> String?,
        lines: @escaping @MainActor () -> AsyncStream<String>,
        bytes: @escaping @MainActor () -> AsyncStream<UInt8>
    ) {
        self.isInteractive = isInteractive
        self.usesColor = usesColor
        self.write = write
        self.writeError = writeError
        readInputLine = readLine
        readSecretLine = readSecret
        self.lines = lines
        self.bytes = bytes
    }

    /// Prints a line to standard output.
    public func print(_ line: String) { write(line + "\n") }

    /// Prints text to standard output as it is.
    public func printRaw(_ text: String) { write(text) }

    /// Prints a line to standard error.
    public func printError(_ line: String) { writeError(line + "\n") }

    /// Reads one line of input without its line break; `nil` at end of input.
    public func readLine() -> String? { readInputLine() }

    /// Reads a secret: without echo on a terminal (after `prompt`), as a plain line otherwise.
    public func readSecret(prompt: String) -> String? { readSecretLine(prompt) }

    /// Input as lines, read without blocking the main actor (the scripted REPL).
    public func inputLines() -> AsyncStream<String> { lines() }

    /// Input as bytes, read without blocking the main actor (the line editor).
    public func inputBytes() -> AsyncStream<UInt8> { bytes() }

    /// Applies a style when colours are on.
    public func styled(_ text: String, _ style: Style) -> String {
        usesColor ? style.apply(to: text) : text
    }
}
