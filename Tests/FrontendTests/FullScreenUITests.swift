import CLIKit
import Kernel
import TUIKit
import Testing

/// The full-screen UI driven by scripted keys, its frame compared as text.
@Suite("Full-screen UI")
@MainActor
struct FullScreenUITests {
    /// A UI of `rows` × `columns` over keys the test types.
    @MainActor final class Terminal {
        let ui: FullScreenUI
        private let keys: AsyncStream<UInt8>.Continuation
        private(set) var sent = ""

        init(rows: Int, columns: Int) {
            let (bytes, keys) = AsyncStream<UInt8>.makeStream()
            self.keys = keys
            var sink: ((String) -> Void)?
            ui = FullScreenUI(bytes: bytes, size: .init(rows: rows, columns: columns), usesColor: false, historyFile: nil) { sink?($0) }
            sink = { [unowned self] in
                sent += $0
                fresh += $0
                if let (text, waiter) = waiting, fresh.contains(text) {
                    waiting = nil
                    waiter.resume(returning: takeFresh())
                }
            }
            // As the host's: the screens can open a conversation.
            ui.completer = { _ in ["/chat", "/help"] }
        }

        func type(_ text: String) { text.utf8.forEach { keys.yield($0) } }

        /// What was sent since the last call, once it holds `text` (awaited until it does, or
        /// until the test is cancelled at its time limit).
        func sent(until text: String) async -> String {
            if fresh.contains(text) { return takeFresh() }
            return await withTaskCancellationHandler {
                await withCheckedContinuation { waiting = (text, $0) }
            } onCancel: {
                Task { @MainActor in
                    self.waiting?.1.resume(returning: self.takeFresh())
                    self.waiting = nil
                }
            }
        }

        private var fresh = ""
        private var waiting: (String, CheckedContinuation<String, Never>)?

        private func takeFresh() -> String {
            defer { fresh = "" }
            return fresh
        }

        /// The line `keys` make the UI hand to the host.
        func line(after keys: String, prompt: String = "chats> ") async -> String? {
            let reading = Task { await ui.readLine(prompt: prompt) }
            await Task.yield()
            type(keys)
            return await reading.value
        }
    }

    static let list = [
        ListedConversation(number: 1, id: ConversationID("c1"), title: "Engine room", unread: 0),
        ListedConversation(number: 2, id: ConversationID("c2"), title: "Grace Hopper", unread: 3, mentions: 1),
        ListedConversation(number: 3, id: ConversationID("c3"), title: "Alan\u{1B}[2J Turing", unread: 1),
        ListedConversation(number: 4, id: ConversationID("c4"), title: "Muted", unread: 5, quiet: true),
    ]

    @Test("the list, the screen's lines, the status and the input line, each in its place")
    func layout() async {
        let terminal = Terminal(rows: 8, columns: 60)
        terminal.ui.showConversations(Self.list)
        terminal.ui.printAbove("[06:20] Grace Hopper: @Ada can you check the Bombe's wiring? It hums.")
        terminal.ui.setStatus(Style.yellow.apply(to: "[2: Grace Hopper 3 @1]"))
        #expect(await terminal.line(after: "hello\r") == "hello")
        #expect(
            terminal.ui.frame.text == """
                Conversations │
                1 Engine room │
                2 Grace H 3 @1│
                3 Alan␛[2J T 1│
                4 Muted 5 ~   │[06:20] Grace Hopper: @Ada can you check the
                              │Bombe's wiring? It hums.
                ── [2: Grace Hopper 3 @1]
                """ + "\nchats> hello", "\n\(terminal.ui.frame.text)")
        #expect(!terminal.sent.contains("\u{1B}[2J T"), "a hostile title is shown, never sent")
    }

    @Test("the list marks where someone types, and says how many invitations wait, on its last row when it is full")
    func typingAndInvitations() async {
        let terminal = Terminal(rows: 7, columns: 60)
        terminal.ui.showConversations(Self.list, invitations: 2)
        terminal.ui.showTyping(in: [ConversationID("c1")])
        #expect(await terminal.line(after: "\r") == "")
        #expect(
            terminal.ui.frame.text.split(separator: "\n").prefix(5).map { String($0.prefix(14)) } == [
                "Conversations ", "1 Engine roo ✎", "2 Grace H 3 @1", "3 Alan␛[2J T 1", "+2 invitations",
            ], "\n\(terminal.ui.frame.text)")
        // Rows below the last one shown (the invitations', the status, the input line) open nothing.
        let many = (1...20).map { ListedConversation(number: $0, id: ConversationID("m\($0)"), title: "Chat \($0)", unread: 0) }
        terminal.ui.showConversations(many, invitations: 2)
        #expect(
            await terminal.line(after: "\u{1B}[<0;3;5M\u{1B}[<0;3;6M\u{1B}[<0;3;7M\u{1B}[<0;3;4M") == "/chat m3",
            "rows 2 to 4 open m1 to m3; the invitations', the status and the input rows open nothing")
        terminal.ui.showTyping(in: [])
        terminal.ui.showConversations(Array(Self.list.prefix(1)))
        #expect(await terminal.line(after: "\r") == "")
        #expect(
            terminal.ui.frame.text.split(separator: "\n").prefix(3).map { String($0.prefix(14)) } == [
                "Conversations ", "1 Engine room ", "              ",
            ])
    }

    @Test("Ctrl-N, Ctrl-P, Alt-1…9 and Alt-A open conversations; Esc goes back; Ctrl-C on an empty line quits")
    func keys() async {
        let terminal = Terminal(rows: 8, columns: 60)
        terminal.ui.showConversations(Self.list)
        #expect(await terminal.line(after: "\u{0E}") == "/chat c1")
        #expect(await terminal.line(after: "\u{0E}") == "/chat c2")
        #expect(await terminal.line(after: "\u{10}") == "/chat c1")
        #expect(await terminal.line(after: "\u{1B}4") == "/chat c4")
        #expect(await terminal.line(after: "\u{1B}a") == "/chat c2", "the first in the hotlist that is not open")
        #expect(await terminal.line(after: "\u{1B}a") == "/chat c3", "and then the next, never the quiet c4")
        #expect(await terminal.line(after: "\u{1B}") == "/back")
        #expect(await terminal.line(after: "typed\u{03}\u{03}") == "/quit", "the first Ctrl-C drops the line, the second quits")
        #expect(await terminal.line(after: "\u{1B}[A\r") == "", "neither a dropped line nor a command of the keys is history")
    }

    @Test("PgUp and PgDn scroll back through the lines and forward again")
    func scrolling() async {
        let terminal = Terminal(rows: 6, columns: 30)
        for number in 1...20 { terminal.ui.printAbove("line \(number)") }
        #expect(await terminal.line(after: "\r") == "")
        #expect(terminal.ui.frame.text.hasPrefix("line 17\nline 18\nline 19\nline 20"))
        #expect(await terminal.line(after: "\u{1B}[5~\u{1B}[5~\r") == "")
        #expect(terminal.ui.frame.text.hasPrefix("line 11\nline 12\nline 13\nline 14"), "\n\(terminal.ui.frame.text)")
        #expect(await terminal.line(after: "\u{1B}[6~\u{1B}[6~\u{1B}[6~\r") == "")
        #expect(terminal.ui.frame.text.hasPrefix("line 17"))
    }

    @Test("a click on the list opens its conversation; the wheel scrolls; the conversation the REPL shows is the one marked")
    func mouse() async {
        let terminal = Terminal(rows: 8, columns: 60)
        terminal.ui.showConversations(Self.list)
        for number in 1...20 { terminal.ui.printAbove("line \(number)") }
        // SGR reports: button;column;row from 1, M for a press.
        #expect(await terminal.line(after: "\u{1B}[<0;5;3M") == "/chat c2", "the list's second row")
        #expect(await terminal.line(after: "\u{1B}[<0;40;3M\u{1B}[<0;5;8M\u{1B}[<2;5;2m\r") == "", "a click off the list's rows opens nothing")
        #expect(terminal.ui.frame.text.split(separator: "\n")[5].hasSuffix("│line 20"))
        #expect(await terminal.line(after: "\u{1B}[<64;40;3M\r") == "")
        #expect(terminal.ui.frame.text.split(separator: "\n")[5].hasSuffix("│line 17"), "\n\(terminal.ui.frame.text)")
        terminal.ui.showing(.conversation(ConversationID("c3")))
        terminal.ui.printAbove("c3's first line")
        #expect(await terminal.line(after: "\r") == "")
        #expect(!terminal.ui.frame.text.contains("line 20") && terminal.ui.frame.text.contains("│c3's first line"), "a new screen starts afresh")
        let marked = (1...4).filter { terminal.ui.frame[$0, 0].style.reverse }
        #expect(marked == [3], "the row of c3, opened by a typed /chat, is the one marked")
        #expect(terminal.ui.columns == 45, "the REPL's own words are wrapped to the pane, not to the terminal")

        // Signed out, or with no feature that opens a conversation: no list, and its keys do nothing.
        terminal.ui.completer = { _ in ["/login", "/help"] }
        terminal.ui.showing(.signIn)
        #expect(await terminal.line(after: "\u{0E}\u{1B}[<0;5;3M\r") == "")
        #expect(terminal.ui.columns == 60 && !terminal.ui.frame.text.contains("Conversations"), "\n\(terminal.ui.frame.text)")
    }

    @Test(
        "Alt-U goes to where the unread lines start; in a conversation, PgUp past the oldest line asks for /more, whose page goes on top, and PgDn past the newest for /newest"
    )
    func unreadAndOlder() async {
        let terminal = Terminal(rows: 6, columns: 30)
        terminal.ui.showing(.conversation(ConversationID("c1")))
        for number in 1...5 { terminal.ui.printAbove("line \(number)") }
        terminal.ui.markUnreadStart()
        terminal.ui.printAbove("——— 15 new ———")
        for number in 6...20 { terminal.ui.printAbove("line \(number)") }
        #expect(await terminal.line(after: "\u{1B}u\r") == "")
        #expect(terminal.ui.frame.text.hasPrefix("——— 15 new ———\nline 6\n"), "\n\(terminal.ui.frame.text)")
        #expect(await terminal.line(after: "\u{1B}[5~\u{1B}[5~\r") == "", "no /more where the screen offers none")
        terminal.ui.completer = { _ in ["/more", "/back"] }
        #expect(await terminal.line(after: "\u{1B}[5~") == "/more")
        #expect(await terminal.line(after: "\u{1B}[5~\r") == "", "asked once until a page comes")
        terminal.ui.printOlder([.line("— 2 older —"), .line("older 1"), .line("older 2")])
        #expect(await terminal.line(after: "\r") == "")
        #expect(terminal.ui.frame.text.hasPrefix("line 1\nline 2"), "the page goes above, what was shown stays")
        #expect(await terminal.line(after: "\u{1B}[5~\r") == "")
        #expect(terminal.ui.frame.text.hasPrefix("— 2 older —\nolder 1\nolder 2\nline 1"), "\n\(terminal.ui.frame.text)")
        #expect(
            await terminal.line(after: "\u{1B}[6~\u{1B}[6~\u{1B}[6~\u{1B}[6~\u{1B}[6~\u{1B}[6~\u{1B}[6~\u{1B}[6~\r") == "", "at the newest: nothing")
        terminal.ui.completer = { _ in ["/more", "/newest"] }
        #expect(await terminal.line(after: "\u{1B}[6~") == "/newest", "past the newest, where the screen let go of newer lines")
        terminal.ui.showing(.conversations)
        #expect(await terminal.line(after: "\u{1B}[5~\r") == "", "the list's /more is its next page, not older lines: not asked for")
    }

    @Test("a page of older lines into a full pane pushes out the newest, and the lines read stay in view")
    func olderIntoFullPane() async {
        let terminal = Terminal(rows: 6, columns: 30)
        terminal.ui.showing(.conversation(ConversationID("c1")))
        terminal.ui.markUnreadStart()
        terminal.ui.printAbove("first kept")
        for number in 2...FullScreenUI.scrollbackLines { terminal.ui.printAbove("line \(number)") }
        #expect(await terminal.line(after: "\u{1B}u\r") == "")
        #expect(terminal.ui.frame.text.hasPrefix("first kept\nline 2\n"), "\n\(terminal.ui.frame.text)")
        terminal.ui.printOlder([.line("older 1"), .line("older 2")])
        #expect(await terminal.line(after: "\r") == "")
        #expect(terminal.ui.frame.text.hasPrefix("first kept\nline 2\n"), "the view moved: \n\(terminal.ui.frame.text)")
    }
}
