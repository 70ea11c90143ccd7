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
    case unknown
}
