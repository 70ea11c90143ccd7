import Foundation
import GRDB
import Testing

/// The REPL as a home, driven through its line editor as on a terminal: the prompt names the
/// place, the hotlist follows unread messages live, `/next` opens them with a marker line,
/// `/help` keeps its columns apart.
@MainActor
@Suite("REPL home", .timeLimit(.minutes(1)))
struct REPLHomeTests {
    let terminal = TestTerminal(interactive: true)

    /// The REPL on the memory backend's mock data, without Auth so that Ada is signed in.
    func startREPL(on terminal: TestTerminal, environment: [String: String] = [:]) -> Task<Int32, Never> {
        Task { await terminal.run("repl --backend memory --features profile,conversationlist,chat", environment: environment) }
    }

    @Test("a reply arriving elsewhere shows in the hotlist; /next opens it with a marker; the prompt names the place")
    func hotlistAndMarker() async {
        // The reply must come after `/back` has left the conversation, however loaded the machine.
        let repl = startREPL(on: terminal, environment: ["MESSAGEAI_MEMORY_PEER_DELAY_MS": "2000"])
        await terminal.waitFor("chats> ")
        terminal.press("/open engine\r")
        await terminal.waitFor("Engine room> ")
        terminal.press("hello everyone\r/back\r")
        await terminal.waitFor("[1: Engine room 1] chats> ")
        terminal.press("/next\r")
        await terminal.waitFor("——— 1 new ———")
        await terminal.waitFor("Engine room> ")
        terminal.press("\u{4}")
        #expect(await repl.value == 0)
        let output = terminal.output
        let marker = output.range(of: "——— 1 new ———")
        let reply = output.range(of: "Grace Hopper: Interesting! Tell me more.", options: .backwards)
        let mine = output.range(of: "You: hello everyone", options: .backwards)
        #expect(marker != nil && reply != nil && mine != nil)
        if let marker, let reply, let mine { #expect(mine.upperBound < marker.lowerBound && marker.upperBound < reply.lowerBound) }
    }

    @Test("messages of another day than the one before them follow a heading of their day; the first shown has none")
    func dayHeadings() async throws {
        let cli = TestTerminal(sharing: terminal)
        for name in ["Ada", "Bob"] { #expect(await cli.signUp(name) == 0) }
        #expect(await cli.run("--profile bob chats new ada@example.com") == 0)
        #expect(await cli.run("--profile ada chats new bob@example.com") == 0)
        for text in ["news of the day before yesterday", "and more of it"] {
            #expect(await cli.run(arguments: ["--profile", "bob", "send", "Ada", text]) == 0)
        }
        let file = terminal.stateDirectory.appendingPathComponent(".local/share/messageai/messageai.sqlite").path
        try await DatabaseQueue(path: file).write { db in try db.execute(sql: "UPDATE messages SET sent_at = sent_at - 2 * 86400000") }
        #expect(await cli.run(arguments: ["--profile", "bob", "send", "Ada", "news of today"]) == 0)

        let repl = Task { await terminal.run("--profile ada repl") }
        await terminal.waitFor("chats> ")
        terminal.press("/open bob\r")
        await terminal.waitFor("Bob: news of today")
        terminal.press("\u{4}")
        #expect(await repl.value == 0)
        let output = terminal.output
        let headings = output.ranges(of: "──── ")
        let old = try #require(output.range(of: "and more of it")), today = try #require(output.range(of: "Bob: news of today"))
        #expect(headings.count == 1, "one heading, and only before today's message: \(output)")
        #expect(headings.allSatisfy { old.upperBound < $0.lowerBound && $0.upperBound < today.lowerBound })
        let day = Date().formatted(.dateTime.weekday(.wide).day().month(.wide))
        #expect(output.contains("──── \(day) ────"), "\(output)")
    }

    @Test("Ctrl-R finds an earlier line by what it contains, and Enter runs it")
    func reverseSearch() async {
        let repl = startREPL(on: terminal)
        await terminal.waitFor("chats> ")
        terminal.press("/people grace\r")
        await terminal.waitFor("Grace Hopper  u-grace")
        terminal.press("/people alan\r")
        await terminal.waitFor("Alan Turing  u-alan")
        terminal.press("\u{12}gra")
        await terminal.waitFor("(reverse-i-search)`gra': /people grace")
        terminal.press("\r")
        await terminal.waitFor("Grace Hopper  u-grace\n")
        terminal.press("\u{4}")
        #expect(await repl.value == 0)
        #expect(terminal.output.components(separatedBy: "Grace Hopper  u-grace").count == 3)
    }

    @Test("/help keeps usage and summary apart whatever their widths")
    func helpColumns() async {
        let repl = startREPL(on: terminal)
        await terminal.waitFor("chats> ")
        terminal.press("/help\r")
        await terminal.waitFor("/quit")
        terminal.press("\u{4}")
        #expect(await repl.value == 0)
        // Each line as it ends up on screen: what follows the last "return, clear line".
        let rows = terminal.output.components(separatedBy: "\n").map { $0.components(separatedBy: "\r\u{1B}[K").last ?? "" }
            .filter { $0.hasPrefix("  /") }
        #expect(rows.contains { $0.hasPrefix("  /group TITLE: USER, USER…") && $0.hasSuffix("  create a group") })
        // Usage and summary are at least two spaces apart, and summaries start in one column.
        #expect(rows.allSatisfy { $0.dropFirst(2).contains("  ") && $0.count <= 80 }, "\(rows)")
        #expect(Set(rows.compactMap(summaryColumn)).count == 1, "\(rows)")
    }

    @Test("on a narrow terminal, /help puts each summary under its usage, wrapped to the width")
    func helpWraps() async {
        let narrow = TestTerminal(columns: 44)
        let repl = startREPL(on: narrow)
        await narrow.waitFor("1. Engine room")
        narrow.type("/help")
        narrow.type("/quit")
        #expect(await repl.value == 0)
        let lines = narrow.output.components(separatedBy: "\n")
        let help = lines.drop { !$0.hasPrefix("  /") }.prefix { !$0.isEmpty }
        #expect(help.allSatisfy { $0.count <= 44 }, "\(help)")
        let continued = help.filter { !$0.hasPrefix("  /") }
        #expect(!continued.isEmpty && continued.allSatisfy { $0.hasPrefix(String(repeating: " ", count: 6)) }, "\(help)")
    }

    @Test("/signup asks for the password twice on a terminal; two that differ make no account (sqlite)")
    func signUpTwice() async {
        let repl = Task { await terminal.run("repl") }
        await terminal.waitFor("sign in> ")
        terminal.press("/signup ada@example.com Ada\r")
        await terminal.waitFor("Password: ")
        terminal.press("password123\r")
        await terminal.waitFor("Password again: ")
        terminal.press("password132\r")
        await terminal.waitFor("the two passwords typed differ")
        terminal.press("/login ada@example.com\r")
        await terminal.waitFor("Password: ")
        terminal.press("password123\r")
        await terminal.waitFor("wrong email or password")
        terminal.press("/signup ada@example.com Ada\r")
        await terminal.waitFor("Password: ")
        terminal.press("password123\r")
        await terminal.waitFor("Password again: ")
        terminal.press("password123\r")
        await terminal.waitFor("Signed in as ada@example.com.")
        terminal.press("\u{4}")
        #expect(await repl.value == 0)
    }

    @Test("the welcome line wraps at spaces, never inside a word, at any width", arguments: [40, 57, 100])
    func welcomeWraps(columns: Int) async {
        let narrow = TestTerminal(columns: columns)
        let repl = Task { await narrow.run("repl") }
        await narrow.waitFor("more.")
        narrow.endInput()
        #expect(await repl.value == 0)
        let welcome = "Welcome to MessageAI. /login EMAIL to sign in, /signup EMAIL NAME to create an account, /help for more."
        let lines = narrow.output.components(separatedBy: "\n").drop { !$0.hasPrefix("Welcome") }.prefix { !$0.isEmpty && !$0.hasPrefix("sign in>") }
        #expect(lines.allSatisfy { $0.count <= columns }, "\(lines)")
        #expect(lines.joined(separator: " ") == welcome, "\(lines)")
    }

    /// Where a help row's summary starts: after the first run of two or more spaces past the indent.
    private func summaryColumn(_ row: String) -> Int? {
        let characters = Array(row)
        guard let gap = (2..<max(2, characters.count - 1)).first(where: { characters[$0] == " " && characters[$0 + 1] == " " }) else { return nil }
        return characters[gap...].firstIndex { $0 != " " }
    }
}
