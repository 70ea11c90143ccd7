import Dispatch
import Foundation
import Synchronization

/// The terminal as the process found it, put back however the process ends: Ctrl-C at a
/// password prompt (echo off), SIGTERM or SIGHUP while the REPL's raw mode is on, or a failed
/// write. One per process, because the terminal is.
public enum TerminalState {
    private static let original = Mutex<termios?>(nil)
    /// The signal sources, kept alive for the life of the process.
    nonisolated(unsafe) private static var handlers: [any DispatchSourceSignal] = []

    /// Remembers the terminal's settings (when standard input is one) and, on SIGINT, SIGTERM
    /// and SIGHUP, restores them and exits with 128 + the signal's number. SIGPIPE is ignored,
    /// so that writing to a closed pipe is an error to report rather than a silent death. Call
    /// once, at the start of `main`, before any other task runs.
    public static func install() {
        signal(SIGPIPE, SIG_IGN)
        var settings = termios()
        if isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &settings) == 0 { original.withLock { $0 = settings } }
        handlers = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                restore()
                _ = "\n".withCString { write(STDERR_FILENO, $0, 1) }
                // _exit: other threads are still running; nothing buffered is left to flush.
                _exit(128 + number)
            }
            source.resume()
            return source
        }
    }

    /// Puts the terminal's settings back as they were at `install()`.
    public static func restore() {
        guard var settings = original.withLock({ $0 }) else { return }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
    }
}
