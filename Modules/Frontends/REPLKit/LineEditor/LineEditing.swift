import CLIKit
import Foundation

/// The line being edited and what each key does to it, apart from how it is drawn: the REPL's
/// `LineEditor` draws it on the terminal's last line, the full-screen UI in its input row.
/// Editing keys, history (Up, Down), reverse search (Ctrl-R) and Tab completion behave the same
/// in both.
@MainActor
public final class LineEditing {
    /// What a key did, in order, for the front end to show.
    public enum Effect: Equatable {
        /// The line is done: hand it to the host.
        case submit(String)
        /// Ctrl-D on an empty line: no more input.
        case endOfInput
        /// Ctrl-C: the line was dropped.
        case interrupted
        /// The key was refused (a character the line cannot take).
        case bell
        /// A character typed at the end of the line: drawing it is enough.
        case echo(Character)
        /// Tab found several completions and none longer than the word: show them.
        case candidates([String])
        /// Ctrl-L.
        case clearScreen
        /// The line changed: draw it again.
        case redraw
    }

    /// Supplies Tab's completions for the word being typed.
    public var completer: (@MainActor (String) -> [String])?
    /// The line.
    public private(set) var buffer = LineBuffer()
    /// Whether the line is a secret: not shown, not kept in the history, not completed.
    public private(set) var isSecret = false
    private let history: History
    private var lastKeyWasTab = false
    private var search: (query: String, match: (index: Int, entry: String)?)?

    /// Editing with the history kept in `historyFile` (none kept when `nil`).
    public init(historyFile: URL?) { history = History(file: historyFile) }

    /// Starts a new line (a secret's when `secret`).
    public func start(secret: Bool) {
        isSecret = secret
        buffer = LineBuffer()
        search = nil
        history.resetCursor()
    }

    /// Keeps a submitted line in the history, unless it is blank.
    public func remember(_ line: String) {
        if !line.trimmingCharacters(in: .whitespaces).isEmpty { history.add(line) }
    }

    /// Whether Ctrl-R is searching the history: `shown` is the search, to be shown without a prompt.
    public var isSearching: Bool { search != nil }

    /// What the line shows, and how many characters its cursor stands before the end: the line
    /// (nothing of a secret's), or the reverse search and the entry it found.
    public var shown: (text: String, back: Int) {
        if let search {
            let label = search.match == nil && !search.query.isEmpty ? "(failing reverse-i-search)`" : "(reverse-i-search)`"
            return (label + TerminalText.line(search.query) + "': " + TerminalText.line(search.match?.entry ?? ""), 0)
        }
        return isSecret ? ("", 0) : (buffer.text, buffer.characters.count - buffer.cursor)
    }

    /// What `key` does.
    public func handle(_ key: Key) -> [Effect] {
        defer { lastKeyWasTab = key == .tab }
        if search != nil, let effects = handleSearch(key) { return effects }
        switch key {
        case .enter:
            return [.submit(buffer.text)]
        case .endOfInput where buffer.characters.isEmpty:
            return [.endOfInput]
        case .interrupt:
            buffer = LineBuffer()
            return [.interrupted, .redraw]
        case .up where !isSecret, .controlP where !isSecret:
            if let entry = history.previous(current: buffer.text) { buffer.replace(with: entry) }
        case .down where !isSecret, .controlN where !isSecret:
            if let entry = history.next() { buffer.replace(with: entry) }
        case .tab where !isSecret:
            if let candidates = complete() { return [.candidates(candidates), .redraw] }
        case .reverseSearch where !isSecret: search = ("", nil)
        case .clearScreen: return [.clearScreen, .redraw]
        case .character(let character) where buffer.cursor == buffer.characters.count:
            // Typing (or pasting) at the end of the line draws just the new character, so a
            // long paste costs time in proportion to its length, not to its square.
            guard buffer.apply(key) else { return [.bell] }
            return isSecret ? [] : [.echo(character)]
        default:
            if !buffer.apply(key), case .character = key { return [.bell, .redraw] }
        }
        return [.redraw]
    }

    /// Completes the word before the cursor; the candidates to show when Tab was pressed twice
    /// and they share nothing longer than the word.
    private func complete() -> [String]? {
        guard let completer else { return nil }
        let word = buffer.currentWord
        // Only candidates that print as they are: a title holding controls is never typed into the line.
        let candidates = completer(word).filter { $0.lowercased().hasPrefix(word.lowercased()) && TerminalText.line($0) == $0 }
        guard let first = candidates.first else { return nil }
        if candidates.count == 1 {
            buffer.completeCurrentWord(with: first + " ")
            return nil
        }
        let common = candidates.dropFirst().reduce(first) { $0.commonPrefix(with: $1, options: .caseInsensitive) }
        if common.count > word.count {
            buffer.completeCurrentWord(with: common)
        } else if lastKeyWasTab {
            return candidates
        }
        return nil
    }

    /// A key while searching the history backwards; `nil` when it ends the search and is then
    /// handled as any key.
    private func handleSearch(_ key: Key) -> [Effect]? {
        guard var current = search else { return nil }
        switch key {
        case .character(let character):
            current.query.append(character)
            // Narrowing keeps to the match shown or older ones, as in bash.
            current.match = history.search(current.query, before: current.match.map { $0.index + 1 })
        case .backspace:
            current.query = String(current.query.dropLast())
            current.match = history.search(current.query)
        case .reverseSearch:
            current.match = history.search(current.query, before: current.match?.index) ?? current.match
        case .cancel, .interrupt:
            search = nil
            return [.redraw]
        case .enter:
            search = nil
            if let entry = current.match?.entry { buffer.replace(with: entry) }
            return [.redraw, .submit(buffer.text)]
        default:
            search = nil
            if let entry = current.match?.entry { buffer.replace(with: entry) }
            return nil
        }
        search = current
        return [.redraw]
    }
}
