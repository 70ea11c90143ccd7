/// A key press, decoded from terminal bytes.
public enum Key: Equatable, Sendable {
    case character(Character)
    case enter, tab, backspace, delete
    case left, right, up, down, home, end
    case wordLeft, wordRight
    case deleteWordBackward, killToStart, killToEnd
    case interrupt, endOfInput, clearScreen, reverseSearch, cancel
    /// Ctrl-N and Ctrl-P: the next and previous history entry while editing a line (as Down and
    /// Up), the next and previous conversation in the full-screen UI.
    case controlN, controlP
    case pageUp, pageDown
    /// Esc alone (`KeyDecoder.flushEscape`).
    case escape
    /// Alt (or Esc) with a character: Alt-1…9, Alt-A.
    case alt(Character)
    /// A mouse button or the wheel, where the terminal reports them (SGR mouse mode, 1006).
    case mouse(Mouse)
    /// Not a key: the terminal answering a question put to it (`TerminalReply`).
    case reply(TerminalReply)
    case unknown

    /// What the mouse did, and where: the row and column from 0 at the top left.
    public struct Mouse: Equatable, Sendable {
        /// A left click, or a turn of the wheel.
        public enum Action: Equatable, Sendable { case click, wheelUp, wheelDown }
        public let action: Action
        public let row: Int
        public let column: Int

        /// `action` at `row` and `column` (from 0).
        public init(_ action: Action, row: Int, column: Int) {
            self.action = action
            self.row = row
            self.column = column
        }
    }
}

/// What a terminal answers when asked what it can do, as the full-screen UI asks at its start to
/// learn whether it can draw pictures. It arrives among the keys, and is never typed.
public enum TerminalReply: Equatable, Sendable {
    /// The answer to a kitty graphics protocol query (`ESC _ G … ESC \`): whether it said `OK`.
    case graphics(ok: Bool)
    /// The primary device attributes (`ESC [ ? 62 ; 4 c`): 4 among them is sixel graphics.
    case deviceAttributes([Int])
    /// The size of a character cell in pixels (`ESC [ 6 ; height ; width t`).
    case cellSize(width: Int, height: Int)
}
