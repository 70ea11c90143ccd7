import CLIKit
import Foundation
import Kernel
import REPLKit

/// The full-screen terminal UI: the REPL's host and screens, shown on the alternate screen with
/// state kept in place instead of scrolling past. The conversation list on the left (`ListPane`),
/// the current screen's lines on the right (`Scrollback`: each screen starts afresh), a status
/// line (who types, the hotlist, trouble) and the input line, edited as the REPL's
/// (`LineEditing`: history, Ctrl-R, Tab). Every REPL command works from the input line; the
/// keys people know from weechat switch conversations by typing the command for them: Ctrl-N
/// and Ctrl-P the next and previous, Alt-1…9 by number, Alt-A the next in the hotlist,
/// Esc back, Alt-U to where the unread messages start. PgUp past the oldest line pages older
/// ones in (`/more`) and PgDn past the newest comes back to them (`/newest`), where the screen
/// offers it. A click on the list opens a conversation, the wheel scrolls. Ctrl-C or Ctrl-D on
/// an empty line leaves.
@MainActor
public final class FullScreenUI: REPLInput {
    /// A terminal's size.
    public struct Size: Equatable, Sendable {
        public let rows: Int
        public let columns: Int

        /// `rows` × `columns`.
        public init(rows: Int, columns: Int) {
            self.rows = rows
            self.columns = columns
        }
    }

    /// Most lines kept to scroll back through: older ones are paged again with `/more`.
    public static let scrollbackLines = 5_000
    /// How long an Esc may stay alone before it is the key itself, not the start of a sequence.
    static let escapeWait: Duration = .milliseconds(30)

    public var completer: (@MainActor (String) -> [String])? {
        get { editing.completer }
        set { editing.completer = newValue }
    }
    public var lineChanged: (@MainActor (String) -> Void)?
    public var isTerminal: Bool { true }
    public var columns: Int? { size.columns - listWidth }
    /// Told each route the REPL shows, after the list marks it: where the front end follows
    /// the list again (after a sign-in or a sign-out).
    public var routeShown: (@MainActor (Route) -> Void)?

    private let editing: LineEditing
    private let write: @MainActor (String) -> Void
    private var keys: AsyncStream<Key>.AsyncIterator
    private var painter: ScreenPainter
    private var size: Size
    private var prompt = StyledText()
    private var status = StyledText()
    private var scrollback = Scrollback(limit: FullScreenUI.scrollbackLines)
    private let pictures = PictureLayer()
    private var list = ListPane()
    /// Whether the screens can open a conversation (`/chat` is offered): only then is the list
    /// shown and are its keys live (not before a sign-in, nor with the features that open none).
    private var opensConversations = true
    private var isEditing = false
    private var redrawScheduled = false
    /// Whether `/more` was asked for and no page of older lines came since: asked once only.
    private var olderAsked = false
    /// Whether the last line was typed by a key of the UI's own (a conversation opened): not history.
    private var typedForPerson = false

    /// The UI over the terminal's `bytes`, of `size`, writing with `write`; the line history is
    /// kept in `historyFile`, colours only when `usesColor`.
    public init(bytes: AsyncStream<UInt8>, size: Size, usesColor: Bool, historyFile: URL?, write: @escaping @MainActor (String) -> Void) {
        editing = LineEditing(historyFile: historyFile)
        self.write = write
        self.size = size
        painter = ScreenPainter(usesColor: usesColor)
        keys = KeyReader.keys(of: bytes).makeAsyncIterator()
    }

    /// Asks the terminal how it draws pictures (`TerminalGraphics`); until it answers, and where
    /// it draws none, a picture is only its line. Its cells are `cell` pixels where it told.
    public func askForGraphics(cell: CellSize?) {
        pictures.ask(cell: cell)
        write(TerminalGraphics.query)
    }

    /// Lets go of every picture the terminal holds: when the UI ends.
    public func letGoOfPictures() { write(pictures.clear()) }

    /// Draws pictures with `graphics`, or none, without asking the terminal, in cells of `cell` pixels.
    public func drawPictures(with graphics: TerminalGraphics?, cell: CellSize?) { pictures.fix(graphics, cell: cell) }

    /// What is on the screen now: for tests, and for a reviewer reading one.
    public private(set) var frame = CellBuffer(rows: 0, columns: 0)

    /// Shows the conversation list: `entries`, the one open (`showing(_:)`) marked, and how many
    /// `invitations` wait for an answer.
    public func showConversations(_ entries: [ListedConversation], invitations: Int = 0) {
        list.entries = entries
        list.invitations = invitations
        scheduleRedraw()
    }

    /// Marks the conversations where someone else is typing (`✎`).
    public func showTyping(in conversations: Set<ConversationID>) {
        list.typing = conversations
        scheduleRedraw()
    }

    /// The terminal changed size: everything is drawn again.
    public func resize(to size: Size) {
        self.size = size
        painter.forget()
        pictures.forget()
        scheduleRedraw()
    }

    // MARK: REPLInput

    public func readLine(prompt: String) async -> String? {
        let line = await edit(prompt: prompt, secret: false)
        if let line, !typedForPerson { editing.remember(line) }
        return line
    }

    public func readSecret(prompt: String) async -> String? { await edit(prompt: prompt, secret: true) }

    public func printAbove(_ text: String) {
        scrollback.append(text)
        scheduleRedraw()
    }

    public var drawsPictures: Bool { pictures.detection.graphics != nil }

    public func printPicture(_ bytes: @escaping @Sendable () async throws -> [UInt8]) {
        guard drawsPictures else { return }
        scrollback.append(pictureBlock(loading: bytes))
        scheduleRedraw()
    }

    /// A picture of the pane, as wide as its lines at most, drawn again once its bytes are in.
    private func pictureBlock(loading bytes: @escaping @Sendable () async throws -> [UInt8]) -> PictureBlock {
        pictures.block(loading: bytes, columns: mainWidth - 1) { [weak self] in self?.scheduleRedraw() }
    }

    public func printOlder(_ page: [Printed]) {
        let lines = page.flatMap { item -> [Scrollback.Line] in
            switch item {
            case .line(let text): Scrollback.Line.lines(of: text)
            case .picture(let bytes): drawsPictures ? [.picture(pictureBlock(loading: bytes))] : []
            }
        }
        scrollback.prepend(lines, width: mainWidth)
        olderAsked = false
        scheduleRedraw()
    }

    public func markUnreadStart() { scrollback.markUnreadStart() }

    /// Another screen starts with the pane to itself: a conversation's timeline, not what the
    /// screens before printed.
    public func showing(_ route: Route) {
        if case .conversation(let id) = route { list.current = id } else { list.current = nil }
        opensConversations = offered("/chat") != nil
        painter.forget()
        letGoOfPictures()
        scrollback = Scrollback(limit: Self.scrollbackLines)
        olderAsked = false
        scheduleRedraw()
        routeShown?(route)
    }

    public func setStatus(_ status: String) {
        self.status = StyledText(parsing: status)
        scheduleRedraw()
    }

    // MARK: Editing

    private func edit(prompt: String, secret: Bool) async -> String? {
        self.prompt = StyledText(parsing: prompt)
        editing.start(secret: secret)
        isEditing = true
        defer { isEditing = false }
        render()
        typedForPerson = false
        while let key = await nextKey() {
            if case .reply(let reply) = key {
                if pictures.take(reply) { scheduleRedraw() }
                continue
            }
            if let line = command(for: key) {
                typedForPerson = true
                return line
            }
            let before = editing.buffer.text
            for effect in editing.handle(key) {
                switch effect {
                case .submit(let line):
                    if !secret { lineChanged?("") }
                    return line
                case .endOfInput: return nil
                case .bell: write("\u{7}")
                case .candidates(let candidates): printAbove(candidates.map(TerminalText.line).joined(separator: "  "))
                case .clearScreen:
                    painter.forget()
                    pictures.forget()
                case .interrupted, .echo, .redraw: break
                }
            }
            if !secret, editing.buffer.text != before { lineChanged?(editing.buffer.text) }
            render()
        }
        return nil
    }

    /// The line a key of the UI's own stands for, typed for the person; `nil` for an editing key.
    private func command(for key: Key) -> String? {
        let empty = editing.buffer.characters.isEmpty
        switch key {
        case .interrupt where empty && !editing.isSearching: return "/quit"
        case .controlN: return conversation(at: (list.position ?? -1) + 1)
        case .controlP: return conversation(at: (list.position ?? list.entries.count) - 1)
        case .alt(let digit) where digit.isASCII && (1...9).contains(digit.wholeNumberValue ?? 0):
            return conversation(at: (digit.wholeNumberValue ?? 1) - 1)
        case .alt("a"), .alt("A"):
            return list.entries.first { $0.isHot && $0.id != list.current }.map { open($0) }
        case .escape: return "/back"
        case .alt("u"), .alt("U"):
            if !scrollback.scrollToUnread(width: mainWidth, height: mainRows) { write("\u{7}") }
            return nil
        case .pageUp: return scroll(by: max(1, mainRows - 1))
        case .pageDown: return scroll(by: -max(1, mainRows - 1))
        case .mouse(let mouse) where mouse.action == .wheelUp: return scroll(by: 3)
        case .mouse(let mouse) where mouse.action == .wheelDown: return scroll(by: -3)
        case .mouse(let mouse) where mouse.column < listWidth && (1...list.rows(height: mainRows)).contains(mouse.row):
            return conversation(at: mouse.row - 1)
        default: return nil
        }
    }

    /// Scrolls the main pane `rows` back (negative: forward). In a conversation: past the
    /// oldest line, `/more` when the screen offers it, to page older messages in (once, until a
    /// page comes); past the newest, `/newest` when the screen let go of newer ones.
    private func scroll(by rows: Int) -> String? {
        guard !scrollback.scroll(by: rows, width: mainWidth, height: mainRows), list.current != nil else { return nil }
        if rows < 0 { return offered("/newest") }
        guard !olderAsked, let command = offered("/more") else { return nil }
        olderAsked = true
        return command
    }

    /// `command`, when the screen shown offers it.
    private func offered(_ command: String) -> String? { editing.completer?(command).contains(command) == true ? command : nil }

    private func conversation(at index: Int) -> String? {
        guard opensConversations, list.entries.indices.contains(index) else { return nil }
        return open(list.entries[index])
    }

    private func open(_ entry: ListedConversation) -> String {
        list.current = entry.id
        return "/chat " + entry.id.rawValue
    }

    // MARK: Drawing

    private var listWidth: Int { opensConversations && size.columns >= 60 ? min(28, size.columns / 4) : 0 }
    private var mainRows: Int { max(0, size.rows - 2) }
    private var mainWidth: Int { size.columns - listWidth }

    private func scheduleRedraw() {
        guard !redrawScheduled else { return }
        redrawScheduled = true
        Task { @MainActor [weak self] in self?.render() }
    }

    private func render() {
        redrawScheduled = false
        var next = CellBuffer(rows: size.rows, columns: size.columns)
        list.draw(into: &next, width: listWidth, height: mainRows)
        let placements = drawMain(into: &next)
        let separator = String(repeating: "─", count: 2) + " "
        next.write(StyledText(separator, .dimmed) + status, row: size.rows - 2, column: 0, width: size.columns)
        let cursor = drawInput(into: &next)
        frame = next
        write(painter.paint(next, overlay: pictures.draw(placements), cursor: cursor))
    }

    /// Draws the pane's rows; where the pictures among them are, and their rows in view.
    private func drawMain(into buffer: inout CellBuffer) -> [(block: PictureBlock, at: PictureLayer.Placement)] {
        let (left, width) = (listWidth, size.columns - listWidth)
        guard width > 0, mainRows > 0 else { return [] }
        let shown = scrollback.rows(width: width, height: mainRows)
        var placements: [(block: PictureBlock, at: PictureLayer.Placement)] = []
        for (index, row) in shown.enumerated() {
            let at = mainRows - shown.count + index
            switch row {
            case .text(let text): buffer.write(text, row: at, column: left, width: width)
            case .picture(let block, let pictureRow):
                buffer.mark(row: at, columns: left..<left + width, with: block.mark(row: pictureRow))
                if let last = placements.last, last.block === block {
                    placements[placements.count - 1].at = .init(row: last.at.row, column: left, rows: last.at.rows.lowerBound..<pictureRow + 1)
                } else {
                    placements.append((block, .init(row: at, column: left, rows: pictureRow..<pictureRow + 1)))
                }
            }
        }
        return placements
    }

    /// Draws the prompt and the line, scrolled sideways so that the cursor shows; where the cursor goes.
    private func drawInput(into buffer: inout CellBuffer) -> (row: Int, column: Int)? {
        let row = size.rows - 1
        guard row >= 0 else { return nil }
        let (text, back) = editing.shown
        let head = editing.isSearching ? StyledText() : prompt
        let characters = Array(text)
        let beforeCursor = CellWidth.of(String(characters.dropLast(back)))
        let room = max(1, size.columns - CellWidth.of(head.plain) - 1)
        var skipped = 0, skippedWidth = 0
        while beforeCursor - skippedWidth > room, skipped < characters.count {
            skippedWidth += CellWidth.of(characters[skipped])
            skipped += 1
        }
        let used = buffer.write(head, row: row, column: 0, width: size.columns)
        buffer.write(StyledText(String(characters.dropFirst(skipped))), row: row, column: used, width: size.columns - used)
        return (row, min(size.columns - 1, used + beforeCursor - skippedWidth))
    }

    // MARK: Keys

    private func nextKey() async -> Key? {
        var iterator = keys
        defer { keys = iterator }
        return await iterator.next(isolation: #isolation)
    }
}
