import Foundation
import Kernel

/// The front ends' only door to the terminal: output, errors, input lines and secrets.
/// Tests build one over strings; the app builds one over the process's standard streams.
@MainActor
public final class Console {
    /// True when input and output are an interactive terminal.
    public let isInteractive: Bool
    /// True when output may carry ANSI colours (a terminal, and no `NO_COLOR`).
    public let usesColor: Bool
    /// The terminal's width in columns (80 when it is not a terminal).
    public let columns: Int
    private let write: @MainActor (String) -> Void
    private let writeError: @MainActor (String) -> Void
    private let readInputLine: @MainActor () -> InputLine?
    private let readSecretLine: @MainActor (String) -> String?
    private let readInput: @MainActor (Int) throws -> [UInt8]
    private let lines: @MainActor () -> AsyncStream<InputLine>
    private let bytes: @MainActor () -> AsyncStream<UInt8>

    /// Creates a console from its channels.
    public init(
        isInteractive: Bool,
        usesColor: Bool,
        write: @escaping @MainActor (String) -> Void,
        writeError: @escaping @MainActor (String) -> Void,
        readLine: @escaping @MainActor () -> InputLine?,
        readSecret: @escaping @MainActor (String) -> String?,
        readInput: @escaping @MainActor (Int) throws -> [UInt8],
        lines: @escaping @MainActor () -> AsyncStream<InputLine>,
        bytes: @escaping @MainActor () -> AsyncStream<UInt8>,
        columns: Int = 80
    ) {
        self.isInteractive = isInteractive
        self.usesColor = usesColor
        self.columns = columns
        self.write = write
        self.writeError = writeError
        readInputLine = readLine
        readSecretLine = readSecret
        self.readInput = readInput
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
    /// - Throws: `.invalidInput` for a line longer than `InputLine.maxBytes` or not UTF-8.
    public func readLine() throws -> String? { try readInputLine()?.get() }

    /// Reads standard input to its end as UTF-8 text, refusing it, without reading on, once it
    /// is longer than `maxBytes`.
    /// - Throws: `.invalidInput` when it is longer or not UTF-8; `.unavailable` when it cannot be read.
    public func readAll(maxBytes: Int) throws -> String {
        let bytes = try readInput(maxBytes + 1)
        guard bytes.count <= maxBytes else {
            throw AppError(.invalidInput, "standard input is longer than \(maxBytes) bytes; nothing was sent")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw AppError(.invalidInput, "standard input is not valid UTF-8 text; nothing was sent")
        }
        return text
    }

    /// Reads a secret: without echo on a terminal (after `prompt`), as a plain line otherwise.
    public func readSecret(prompt: String) -> String? { readSecretLine(prompt) }

    /// Input as lines, read without blocking the main actor (the scripted REPL).
    public func inputLines() -> AsyncStream<InputLine> { lines() }

    /// Input as bytes, read without blocking the main actor (the line editor).
    public func inputBytes() -> AsyncStream<UInt8> { bytes() }

    /// Applies a style when colours are on.
    public func styled(_ text: String, _ style: Style) -> String {
        usesColor ? style.apply(to: text) : text
    }
}

/// The CLI's exit codes: one per failure class (`AppError.Kind.exitCode`), and those of the CLI's own conditions.
public enum ExitStatus {
    /// Standard output or standard error could not be written (a closed pipe, a full disk).
    public static let outputFailed: Int32 = 74
    /// Interrupted by Ctrl-C (SIGINT), after the terminal was put back as it was.
    public static let interrupted: Int32 = 130
}
