import CLIKit
import Dispatch
import Foundation
import REPLKit

/// The terminal while the full-screen UI holds it: raw input, the alternate screen (so that
/// what was on the terminal before is there again after), and its size as it changes
/// (SIGWINCH). `leave()` puts it back; so does any way the process ends (`TerminalState`).
@MainActor
public final class TerminalScreen {
    /// Switches to the alternate screen and back (xterm's private mode 1049), showing the cursor;
    /// the terminal reports clicks and the wheel meanwhile (modes 1000 and 1006; Shift with the
    /// mouse still selects text in most terminals).
    static let enterSequence = "\u{1B}[?1049h\u{1B}[H\u{1B}[2J\u{1B}[?1000h\u{1B}[?1006h",
        leaveSequence = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    private var rawMode = RawMode()
    private let write: @MainActor (String) -> Void
    private var resizeSource: (any DispatchSourceSignal)?

    /// The screen of the terminal `write` writes to.
    public init(write: @escaping @MainActor (String) -> Void) { self.write = write }

    /// The terminal's size now, or `nil` when standard output is not a terminal.
    public static func size() -> FullScreenUI.Size? {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0, window.ws_col > 0 else { return nil }
        return FullScreenUI.Size(rows: Int(window.ws_row), columns: Int(window.ws_col))
    }

    /// The size of a character cell in pixels, where the terminal tells it (xterm, kitty, foot do;
    /// others say 0).
    public static func cellSize() -> CellSize? {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0, window.ws_col > 0, window.ws_xpixel > 0,
            window.ws_ypixel > 0
        else { return nil }
        return CellSize(width: Int(window.ws_xpixel) / Int(window.ws_col), height: Int(window.ws_ypixel) / Int(window.ws_row))
    }

    /// Takes the terminal; `resized` hears each new size.
    public func enter(resized: @escaping @MainActor (FullScreenUI.Size) -> Void) {
        rawMode.enable()
        TerminalState.onExit(write: Self.leaveSequence)
        write(Self.enterSequence)
        signal(SIGWINCH, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        source.setEventHandler {
            MainActor.assumeIsolated {
                if let size = Self.size() { resized(size) }
            }
        }
        source.resume()
        resizeSource = source
    }

    /// Gives the terminal back as it was.
    public func leave() {
        resizeSource?.cancel()
        write(Self.leaveSequence)
        TerminalState.onExit(write: "")
        rawMode.disable()
    }
}
