import CLIKit
import Foundation

/// Line editing on a terminal's last line (`LineEditing`): cursor keys, home/end, word delete,
/// Ctrl-U/K, history with up/down (kept in a file across runs), Ctrl-R, tab completion, Ctrl-C
/// clears the line, Ctrl-D on an empty line ends input. Output printed while a line is being
/// edited appears above it.
@MainActor
public final class LineEditor: REPLInput {
    public var completer: (@MainActor (String) -> [String])? {
        get { editing.completer }
        set { editing.completer = newValue }
    }
    public var lineChanged: (@MainActor (String) -> Void)?
    private var keys: AsyncStream<UInt8>.AsyncIterator
    private var decoder = KeyDecoder()
    private var rawMode = RawMode()
    private let editing: LineEditing
    private let write: @MainActor (String) -> Void
    private var prompt = ""
    private var isEditing = false
    private var status = ""

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
        editing = LineEditing(historyFile: historyFile)
        self.write = write
    }

    public func readLine(prompt: String) async -> String? {
        let line = await edit(prompt: prompt, secret: false)
        if let line { editing.remember(line) }
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
        editing.start(secret: secret)
        isEditing = true
        defer { isEditing = false }
        redraw()
        while let byte = await nextByte() {
            guard let key = decoder.feed(byte) else { continue }
            let before = editing.buffer.text
            for effect in editing.handle(key) {
                switch effect {
                case .submit(let line):
                    write("\r\n")
                    if !secret { lineChanged?("") }
                    return line
                case .endOfInput:
                    write("\r\n")
                    return nil
                case .interrupted: write("^C\r\n")
                case .bell: write("\u{7}")
                case .echo(let character): write(String(character))
                case .candidates(let candidates): write("\r\u{1B}[K" + candidates.map(TerminalText.line).joined(separator: "  ") + "\n")
                case .clearScreen: write("\u{1B}[H\u{1B}[2J")
                case .redraw: redraw()
                }
            }
            if !secret, editing.buffer.text != before { lineChanged?(editing.buffer.text) }
        }
        write("\r\n")
        return nil
    }

    private func nextByte() async -> UInt8? {
        var iterator = keys
        defer { keys = iterator }
        return await iterator.next(isolation: #isolation)
    }

    private func redraw() {
        let (shown, back) = editing.shown
        // A reverse search takes the whole line, as in bash.
        guard !editing.isSearching else { return write("\r\u{1B}[K" + shown) }
        write("\r\u{1B}[K" + (status.isEmpty ? "" : status + " ") + prompt + shown + (back > 0 ? "\u{1B}[\(back)D" : ""))
    }
}
