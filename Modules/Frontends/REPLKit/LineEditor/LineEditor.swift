import CLIKit
import Foundation

/// Line editing on a terminal: cursor keys, home/end, word delete, Ctrl-U/K, history with
/// up/down (kept in a file across runs), tab completion, Ctrl-C clears the line, Ctrl-D on an
/// empty line ends input. Output printed while a line is being edited appears above it.
@MainActor
public final class LineEditor: REPLInput {
    public var completer: (@MainActor (String) -> [String])?
    public var lineChanged: (@MainActor (String) -> Void)?
    private var keys: AsyncStream<UInt8>.AsyncIterator
    private var decoder = KeyDecoder()
    private var rawMode = RawMode()
    private let history: History
    private let write: @MainActor (String) -> Void
    private var buffer = LineBuffer()
    private var prompt = ""
    private var isEditing = false
    private var isSecret = false
    private var lastKeyWasTab = false
    private var status = ""
    /// Ctrl-R's state while searching the history: what is typed, and the match shown.
    private var search: (query: String, match: (index: Int, entry: String)?)?

    public var isTerminal: Bool { true }

    public func setStatus(_ status: String) {
        guard status != self.status else { return }
        self.status = status
        if isEditing { redraw() }
    }

    /// Creates an editor over the terminal's bytes, writing with `write`, keeping history in
    /// `historyFile` (if given).
    public init(bytes: AsyncStream<UInt8>, historyFile: URL?, write: @escaping @MainActor (String) -> Void) {
        keys = bytes.makeAsyncIterator()
        history = History(file: historyFile)
        self.write = write
    }

    public func readLine(prompt: String) async -> String? {
        let line = await edit(prompt: prompt, secret: false)
        if let line, !line.trimmingCharacters(in: .whitespaces).isEmpty { history.add(line) }
        return line
    }

    public func readSecret(prompt: String) async -> String? {
        await edit(prompt: prompt, secret: true)
    }

    public func printAbove(_ text: String) {
        if isEditing {
            write("\r\u{1B}[K" + text + "\n")
            redraw()
        } else {
            write(text + "\n")
        }
    }

    private func edit(prompt: String, secret: Bool) async -> String? {
        rawMode.enable()
        defer { rawMode.disable() }
        self.prompt = prompt
        isSecret = secret
        buffer = LineBuffer()
        search = nil
        history.resetCursor()
        isEditing = true
        defer { isEditing = false }
        redraw()
        while let byte = await nextByte() {
            guard let key = decoder.feed(byte) else { continue }
            let before = buffer.text
            switch handle(key) {
            case .submit(let line):
                if !secret { lineChanged?("") }
                return line
            case .endOfInput: return nil
            case nil:
                if !secret, buffer.text != before { lineChanged?(buffer.text) }
            }
        }
        write("\r\n")
        return nil
    }

    private func nextByte() async -> UInt8? {
        var iterator = keys
        defer { keys = iterator }
        return await iterator.next(isolation: #isolation)
    }

    private enum Outcome {
        case submit(String)
        case endOfInput
    }

    /// Handles a key; returns an outcome when the line is finished.
    private func handle(_ key: Key) -> Outcome? {
        defer { lastKeyWasTab = key == .tab }
        if search != nil {
            switch handleSearch(key) {
            case .consumed: return nil
            case .submit(let line): return .submit(line)
            case .passThrough: break
            }
        }
        switch key {
        case .enter:
            write("\r\n")
            return .submit(buffer.text)
        case .endOfInput where buffer.characters.isEmpty:
            write("\r\n")
            return .endOfInput
        case .interrupt:
            write("^C\r\n")
            buffer = LineBuffer()
        case .up where !isSecret:
            if let entry = history.previous(current: buffer.text) { buffer.replace(with: entry) }
        case .down where !isSecret:
            if let entry = history.next() { buffer.replace(with: entry) }
        case .tab where !isSecret: complete()
        case .reverseSearch where !isSecret: search = ("", nil)
        case .clearScreen: write("\u{1B}[H\u{1B}[2J")
        case .character(let character) where buffer.cursor == buffer.characters.count:
            // Typing (or pasting) at the end of the line writes just the new character, so a
            // long paste costs time in proportion to its length, not to its square.
            guard buffer.apply(key) else {
                write("\u{7}")
                return nil
            }
            if !isSecret { write(String(character)) }
            return nil
        default:
            if !buffer.apply(key), case .character = key { write("\u{7}") }
        }
        redraw()
        return nil
    }

    private func complete() {
        guard let completer else { return }
        let word = buffer.currentWord
        // Only candidates that print as they are: a title holding controls is never typed into the line.
        let candidates = completer(word).filter { $0.lowercased().hasPrefix(word.lowercased()) && TerminalText.line($0) == $0 }
        guard let first = candidates.first else { return }
        if candidates.count == 1 {
            buffer.completeCurrentWord(with: first + " ")
            return
        }
        let common = candidates.dropFirst().reduce(first) { $0.commonPrefix(with: $1, options: .caseInsensitive) }
        if common.count > word.count {
            buffer.completeCurrentWord(with: common)
        } else if lastKeyWasTab {
            write("\r\u{1B}[K" + candidates.map(TerminalText.line).joined(separator: "  ") + "\n")
        }
    }

    private enum SearchStep {
        case consumed
        case submit(String)
        case passThrough
    }

    /// What a key does during a Ctrl-R search: typing narrows it, Ctrl-R finds an older match,
    /// Enter runs the match, Ctrl-G or Ctrl-C cancel, any other key keeps the match as the line
    /// and is then handled as usual.
    private func handleSearch(_ key: Key) -> SearchStep {
        guard var current = search else { return .passThrough }
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
            redraw()
            return .consumed
        case .enter:
            search = nil
            if let entry = current.match?.entry { buffer.replace(with: entry) }
            redraw()
            write("\r\n")
            return .submit(buffer.text)
        default:
            search = nil
            if let entry = current.match?.entry { buffer.replace(with: entry) }
            return .passThrough
        }
        search = current
        redraw()
        return .consumed
    }

    private func redraw() {
        if let search {
            let label = search.match == nil && !search.query.isEmpty ? "(failing reverse-i-search)`" : "(reverse-i-search)`"
            let shown = label + TerminalText.line(search.query) + "': " + TerminalText.line(search.match?.entry ?? "")
            return write("\r\u{1B}[K" + shown)
        }
        let shown = isSecret ? "" : buffer.text
        let back = isSecret ? 0 : buffer.characters.count - buffer.cursor
        write("\r\u{1B}[K" + (status.isEmpty ? "" : status + " ") + prompt + shown + (back > 0 ? "\u{1B}[\(back)D" : ""))
    }
}
