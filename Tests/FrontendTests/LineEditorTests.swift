import Foundation
import REPLKit
import Testing

/// A line editor fed bytes by hand, its output collected.
@MainActor
final class EditorHarness {
    let editor: LineEditor
    private let keys: AsyncStream<UInt8>.Continuation
    let log = OutputLog()

    /// Everything the editor wrote.
    var output: String { log.text }

    init(historyFile: URL? = nil) {
        let (stream, keys) = AsyncStream<UInt8>.makeStream()
        self.keys = keys
        editor = LineEditor(bytes: stream, historyFile: historyFile) { [log] in log.append($0) }
    }

    func type(_ text: String) { Array(text.utf8).forEach { keys.yield($0) } }
    func end() { keys.finish() }
}

@Suite("Line editor", .timeLimit(.minutes(3)))
@MainActor
struct LineEditorTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-editor-\(UUID().uuidString)")

    @Test("typed keys edit the line; enter submits it; the prompt is redrawn as it changes")
    func typing() async {
        let terminal = EditorHarness()
        terminal.type("helo\u{1B}[D\u{1B}[Dl\r")
        #expect(await terminal.editor.readLine(prompt: "> ") == "hello")
        #expect(terminal.output.contains("\r\u{1B}[K> helo"))
        #expect(terminal.output.hasSuffix("\r\n"))
    }

    @Test("a pasted line costs output in proportion to its length, and stops with a bell at the line limit")
    func longPaste() async {
        let terminal = EditorHarness()
        let pasted = String(repeating: "x", count: LineBuffer.maxCharacters + 100)
        terminal.type(pasted + "\r")
        let line = await terminal.editor.readLine(prompt: "> ")
        #expect(line?.count == LineBuffer.maxCharacters)
        #expect(terminal.output.utf8.count < 2 * pasted.utf8.count, "wrote \(terminal.output.utf8.count) bytes for a \(pasted.utf8.count)-byte paste")
        #expect(terminal.output.filter { $0 == "\u{7}" }.count == 100)
    }

    @Test("a history path that is a FIFO is left alone: the editor starts, reads, and writes no history there")
    func historyFIFO() async throws {
        let file = folder.appendingPathComponent("fifo-history")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(mkfifo(file.path, 0o600) == 0)
        let terminal = EditorHarness(historyFile: file)
        terminal.type("hello\r")
        #expect(await terminal.editor.readLine(prompt: "> ") == "hello")
        var info = stat()
        #expect(stat(file.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test("up and down browse history, newest first, back to the draft; history survives a new editor, private to its owner")
    func history() async throws {
        let file = folder.appendingPathComponent("history/default")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = EditorHarness(historyFile: file)
        first.type("one\rtwo\r")
        _ = await first.editor.readLine(prompt: "> ")
        _ = await first.editor.readLine(prompt: "> ")
        first.type("dra\u{1B}[A\u{1B}[A\u{1B}[A\r")
        #expect(await first.editor.readLine(prompt: "> ") == "one")
        first.type("\u{1B}[A\u{1B}[A\u{1B}[B\u{1B}[B\u{1B}[B\r")
        #expect(await first.editor.readLine(prompt: "> ") == "")
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)

        let second = EditorHarness(historyFile: file)
        second.type("\u{1B}[A\r")
        #expect(await second.editor.readLine(prompt: "> ") == "one")
        #expect(try String(contentsOf: file, encoding: .utf8) == "one\ntwo\none\n")
    }

    @Test("a secret is neither echoed nor kept in history")
    func secret() async throws {
        let file = folder.appendingPathComponent("history/secret")
        defer { try? FileManager.default.removeItem(at: folder) }
        let terminal = EditorHarness(historyFile: file)
        terminal.type("hunter2\r")
        #expect(await terminal.editor.readSecret(prompt: "Password: ") == "hunter2")
        #expect(!terminal.output.contains("hunter2"))
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("Ctrl-C clears the line, Ctrl-D on an empty line and the end of input end it, Ctrl-L clears the screen")
    func controlKeys() async {
        let terminal = EditorHarness()
        terminal.type("oops\u{03}ok\u{0C}\r")
        #expect(await terminal.editor.readLine(prompt: "> ") == "ok")
        #expect(terminal.output.contains("^C\r\n"))
        #expect(terminal.output.contains("\u{1B}[H\u{1B}[2J"))
        terminal.type("\u{04}")
        #expect(await terminal.editor.readLine(prompt: "> ") == nil)
        terminal.type("half")
        terminal.end()
        #expect(await terminal.editor.readLine(prompt: "> ") == nil)
    }

    @Test("tab completes one candidate with a space, several to their common part, and a second tab lists them")
    func completion() async {
        let terminal = EditorHarness()
        terminal.editor.completer = { _ in ["/open", "/older", "/new"] }
        terminal.type("/n\t\r")
        #expect(await terminal.editor.readLine(prompt: "> ") == "/new ")
        terminal.type("/O\t\t\r")
        #expect(await terminal.editor.readLine(prompt: "> ") == "/O")
        #expect(terminal.output.contains("/open  /older\n"))
    }

    @Test("output printed while a line is edited appears above it, and the line is drawn again")
    func printAbove() async {
        let terminal = EditorHarness()
        terminal.editor.printAbove("before")
        #expect(terminal.output == "before\n")
        terminal.type("draft")
        let reading = Task { await terminal.editor.readLine(prompt: "> ") }
        await terminal.log.waitFor("> draft")
        terminal.editor.printAbove("news")
        #expect(terminal.output.hasSuffix("\r\u{1B}[Knews\n\r\u{1B}[K> draft"))
        terminal.type("\r")
        #expect(await reading.value == "draft")
    }
}
