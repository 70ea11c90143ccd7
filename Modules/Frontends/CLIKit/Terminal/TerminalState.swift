import Dispatch
import Foundation
import Synchronization

/// The terminal as the process found it, put back however the process ends: Ctrl-C at a
/// password prompt (echo off), SIGTERM or SIGHUP while the REPL's raw mode is on, a failed
/// write, or a crash (SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP: a Swift runtime trap) while the
/// full-screen UI holds the alternate screen. One per process, because the terminal is.
public enum TerminalState {
    private static let original = Mutex<termios?>(nil)
    /// What puts the screen back (`onExit(write:)`), and the settings, where a crash's handler
    /// can read them without taking a lock or allocating.
    nonisolated(unsafe) private static var crashReset = (bytes: UnsafeMutablePointer<UInt8>.allocate(capacity: 64), count: 0)
    nonisolated(unsafe) private static var crashSettings = termios()
    nonisolated(unsafe) private static var hasCrashSettings = false
    /// What handled each crash signal before: it gets the signal once the terminal is back.
    nonisolated(unsafe) private static var previousActions: [sigaction] = Array(repeating: sigaction(), count: 32)
    /// The signal sources, kept alive for the life of the process.
    nonisolated(unsafe) private static var handlers: [any DispatchSourceSignal] = []

    /// Remembers the terminal's settings (when standard input is one) and, on SIGINT, SIGTERM
    /// and SIGHUP, restores them and exits with 128 + the signal's number. SIGPIPE is ignored,
    /// so that writing to a closed pipe is an error to report rather than a silent death. Call
    /// once, at the start of `main`, before any other task runs.
    public static func install() {
        signal(SIGPIPE, SIG_IGN)
        var settings = termios()
        if isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &settings) == 0 {
            original.withLock { $0 = settings }
            (crashSettings, hasCrashSettings) = (settings, true)
        }
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

    /// Puts the terminal's settings back as they were at `install()`, and the screen (`onExit(write:)`).
    public static func restore() {
        _ = write(STDOUT_FILENO, crashReset.bytes, crashReset.count)
        guard var settings = original.withLock({ $0 }) else { return }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
    }

    /// From now on, however the process ends, `sequence` (at most 64 bytes) is written to
    /// standard output first: the full-screen UI's way back from the alternate screen. `""` once
    /// the screen is back.
    /// While it is set, a crash puts the terminal back before the signal goes on to whoever
    /// handled it before (Swift's backtracer, or the default).
    public static func onExit(write sequence: String) {
        let bytes = Array(sequence.utf8.prefix(64))
        crashReset.count = 0
        for (index, byte) in bytes.enumerated() { crashReset.bytes[index] = byte }
        crashReset.count = bytes.count
        catchCrashes(!bytes.isEmpty)
    }

    private static let crashSignals = [SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP]
    nonisolated(unsafe) private static var catchingCrashes = false

    /// Puts the crash handler in front of the signals' handlers, or the handlers back.
    private static func catchCrashes(_ catching: Bool) {
        guard catching != catchingCrashes else { return }
        catchingCrashes = catching
        for number in crashSignals {
            guard catching else {
                sigaction(number, &previousActions[Int(number)], nil)
                continue
            }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                // Only what a signal handler may do: put the settings back, write the bytes, then hand
                // the signal to whoever had it before.
                if TerminalState.hasCrashSettings { tcsetattr(STDIN_FILENO, TCSAFLUSH, &TerminalState.crashSettings) }
                _ = write(STDOUT_FILENO, TerminalState.crashReset.bytes, TerminalState.crashReset.count)
                sigaction(number, &TerminalState.previousActions[Int(number)], nil)
                raise(number)
            }
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, &previousActions[Int(number)])
        }
    }
}
