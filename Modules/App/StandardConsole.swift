import CLIKit
import Foundation
import REPLKit

/// The console over the process's standard streams.
@MainActor
enum StandardConsole {
    static func make(environment: [String: String]) -> Console {
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        return Console(
            isInteractive: interactive,
            usesColor: isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"].map(\.isEmpty) != false && environment["TERM"] != "dumb",
            write: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            writeError: { text in FileHandle.standardError.write(Data(text.utf8)) },
            readLine: { Swift.readLine(strippingNewline: true) },
            readSecret: readWithoutEcho,
            lines: TerminalInput.lines,
            bytes: TerminalInput.bytes
        )
    }

    /// Reads a line from the terminal with echo turned off.
    private static func readWithoutEcho(prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        let canHide = tcgetattr(STDIN_FILENO, &saved) == 0
        if canHide {
            var hidden = saved
            hidden.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &hidden)
        }
        defer {
            if canHide { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return Swift.readLine(strippingNewline: true)
    }
}
