import Foundation

/// Switches the terminal to byte-at-a-time input without echo, and back.
public struct RawMode {
    private var original = termios()
    public private(set) var isOn = false

    /// A terminal in the mode it was found in.
    public init() {}

    /// Byte-at-a-time input without echo, on standard input when it is a terminal.
    public mutating func enable() {
        guard !isOn, tcgetattr(STDIN_FILENO, &original) == 0 else { return }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        isOn = tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0
    }

    /// The mode it was in before `enable`.
    public mutating func disable() {
        guard isOn else { return }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
        isOn = false
    }
}
