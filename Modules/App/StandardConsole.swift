import CLIKit
import Foundation
import Kernel
import REPLKit

/// The console over the process's standard streams. Output is written with `write(2)`: a
/// closed pipe or a full disk ends the process with one line on standard error and exit code
/// 74, never a crash. Input is read in bounded amounts.
@MainActor
enum StandardConsole {
    static func make(environment: [String: String]) -> Console {
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        return Console(
            isInteractive: interactive,
            usesColor: isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"].map(\.isEmpty) != false && environment["TERM"] != "dumb",
            write: { text in write(text, to: STDOUT_FILENO) },
            writeError: { text in write(text, to: STDERR_FILENO) },
            readLine: readLine,
            readSecret: readWithoutEcho,
            readInput: readInput,
            lines: TerminalInput.lines,
            bytes: TerminalInput.bytes,
            columns: columns()
        )
    }

    /// The terminal's width, or 80 when standard output is not a terminal.
    private static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Writes all of `text` to `descriptor`, or ends the process when it cannot.
    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { outputFailed(descriptor, errno: errno) }
            bytes = bytes.dropFirst(written)
        }
    }

    private static func outputFailed(_ descriptor: Int32, errno code: Int32) -> Never {
        if descriptor != STDERR_FILENO {
            let line = "error: cannot write to standard output: \(String(cString: strerror(code)))\n"
            _ = line.withCString { Glibc.write(STDERR_FILENO, $0, strlen($0)) }
        }
        TerminalState.restore()
        exit(ExitStatus.outputFailed)
    }

    /// One line of standard input, read a byte at a time so nothing past it is consumed.
    private static func readLine() -> InputLine? {
        var splitter = LineSplitter()
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return splitter.end() }
            if let line = splitter.feed(byte) { return line }
            // One line is all that is wanted: an endless one (`< /dev/zero`) is refused, not read on.
            if splitter.isOverflowing { return splitter.end() }
        }
    }

    /// Standard input up to `limit` bytes (less at its end).
    private static func readInput(limit: Int) throws -> [UInt8] {
        guard let bytes = RegularFile.readUpTo(limit, from: STDIN_FILENO) else {
            throw AppError(.unavailable, "cannot read standard input: \(String(cString: strerror(errno)))")
        }
        return bytes
    }

    /// Reads a line from the terminal with echo turned off; Ctrl-C puts echo back (see `TerminalState`).
    private static func readWithoutEcho(prompt: String) -> String? {
        var saved = termios()
        let canHide = tcgetattr(STDIN_FILENO, &saved) == 0
        if canHide {
            var hidden = saved
            hidden.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &hidden)
        }
        // The prompt only once echo is off, so nothing typed after it is ever shown.
        write(prompt, to: STDERR_FILENO)
        defer {
            if canHide { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            write("\n", to: STDERR_FILENO)
        }
        return try? readLine()?.get()
    }
}
