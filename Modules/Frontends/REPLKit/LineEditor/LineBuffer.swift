/// The text being edited and the cursor in it, with the editing operations of a shell prompt.
public struct LineBuffer: Equatable, Sendable {
    /// The characters of the line.
    public private(set) var characters: [Character] = []
    /// Cursor position, 0…count.
    public private(set) var cursor = 0

    /// Most characters a line holds; typing or pasting past it is refused. (Characters as keys
    /// arrive, one Unicode scalar each, so a line stays within about four times as many bytes.)
    public static let maxCharacters = 16_384

    /// Creates a buffer holding `text` with the cursor at its end.
    public init(_ text: String = "") { replace(with: text) }

    /// The line as a string.
    public var text: String { String(characters) }

    /// Replaces the whole line and puts the cursor at the end.
    public mutating func replace(with text: String) {
        characters = Array(text)
        cursor = characters.count
    }

    /// Applies an editing key; returns false for keys that are not editing keys.
    @discardableResult
    public mutating func apply(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            guard characters.count < Self.maxCharacters else { return false }
            characters.insert(character, at: cursor)
            cursor += 1
        case .backspace where cursor > 0:
            cursor -= 1
            characters.remove(at: cursor)
        case .delete where cursor < characters.count:
            characters.remove(at: cursor)
        case .backspace, .delete: break
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = characters.count
        case .wordLeft: cursor = startOfWord(before: cursor)
        case .wordRight: cursor = endOfWord(after: cursor)
        case .deleteWordBackward:
            let start = startOfWord(before: cursor)
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .killToStart:
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .killToEnd: characters.removeSubrange(cursor...)
        default: return false
        }
        return true
    }

    /// The word the cursor is at the end of (for completion).
    public var currentWord: String {
        String(characters[startOfWord(before: cursor, spacesOnly: true)..<cursor])
    }

    /// Replaces the word before the cursor with `word`.
    public mutating func completeCurrentWord(with word: String) {
        let start = startOfWord(before: cursor, spacesOnly: true)
        characters.replaceSubrange(start..<cursor, with: Array(word))
        cursor = start + word.count
    }

    private func startOfWord(before index: Int, spacesOnly: Bool = false) -> Int {
        var start = index
        while start > 0, characters[start - 1] == " ", !spacesOnly { start -= 1 }
        while start > 0, characters[start - 1] != " " { start -= 1 }
        return start
    }

    private func endOfWord(after index: Int) -> Int {
        var end = index
        while end < characters.count, characters[end] == " " { end += 1 }
        while end < characters.count, characters[end] != " " { end += 1 }
        return end
    }
}
