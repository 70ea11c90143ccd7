/// A key press, decoded from terminal bytes.
public enum Key: Equatable, Sendable {
    case character(Character)
    case enter, tab, backspace, delete
    case left, right, up, down, home, end
    case wordLeft, wordRight
    case deleteWordBackward, killToStart, killToEnd
    case interrupt, endOfInput, clearScreen, reverseSearch, cancel
    case unknown
}
