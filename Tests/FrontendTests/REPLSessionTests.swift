import Testing

@MainActor
@Suite("REPL sessions", .timeLimit(.minutes(1)))
struct REPLSessionTests {
    let terminal = TestTerminal()

    func startREPL(_ extra: String = "") -> Task<Int32, Never> {
        let terminal = terminal
        return Task { await terminal.run("repl --backend memory" + extra, environment: ["MESSAGEAI_MEMORY_PEER_DELAY_MS": "0"]) }
    }

    func signIn() async {
        await terminal.waitFor("/login EMAIL to sign in")
        terminal.type("/login ada@example.com")
        terminal.type("password123")
        await terminal.waitFor("1. Engine room [group]")
    }

    @Test("sign in, open a conversation, exchange messages with the simulated peer, go back to the list")
    func chatSession() async {
        let repl = startREPL()
        await signIn()
        terminal.type("/open grace")
        await terminal.waitFor("Grace Hopper: Taping it into the logbook.")
        terminal.type("hello from the test")
        await terminal.waitFor("You: hello from the test")
        await terminal.waitFor("Grace Hopper: Interesting! Tell me more.")
        terminal.type("/back")
        await terminal.waitFor("1. Grace Hopper  ")
        terminal.type("/quit")
        #expect(await repl.value == 0)
        #expect(terminal.output.contains("Signed in as ada@example.com."))
    }

    @Test("a REPL keeps its identity when another terminal signs in on its profile, and stops once its session is ended elsewhere (sqlite)")
    func identityAcrossTerminals() async {
        let other = TestTerminal(sharing: terminal)
        other.setInput(["password-ada"])
        #expect(await other.run("signup --email ada@example.com --name Ada --password-stdin") == 0)
        other.setInput(["password-bob"])
        #expect(await other.run("--profile bob signup --email bob@example.com --name Bob --password-stdin") == 0)
        let terminal = terminal
        let repl = Task { await terminal.run("repl") }
        await terminal.waitFor("No conversations yet")
        other.setInput(["password-bob"])
        #expect(await other.run("login --email bob@example.com --password-stdin") == 0)
        terminal.type("/whoami")
        await terminal.waitFor("ada@example.com (")
        other.setInput(["password-ada"])
        #expect(await other.run("--profile laptop login --email ada@example.com --password-stdin") == 0)
        other.setInput(["password-ada", "password-ada-2"])
        #expect(await other.run("--profile laptop passwd --password-stdin") == 0)
        terminal.type("/whoami")
        await terminal.waitFor("error: not signed in")
        terminal.type("/quit")
        #expect(await repl.value == 0)
        #expect(!terminal.output.contains("bob@example.com"))
    }

    @Test(
        "each feature alone starts on a screen of its own, and /help lists only enabled commands",
        arguments: [
            ("chat", "Alan Turing: Bombe is humming along.", ["/chat", "/more", "/attach", "/open"], ["/new", "/profile", "/login"]),
            ("profile", "Ada Lovelace <ada@example.com>", ["/profile", "/name"], ["/open", "/chat", "/login"]),
            ("auth", "Welcome to MessageAI. /login EMAIL to sign in", ["/login", "/signup"], ["/open", "/chat", "/profile"]),
            ("conversationlist", "1. Engine room [group]", ["/open", "/new"], ["/chat", "/profile", "/login"]),
            (
                "search", "Search your messages: type words to find", ["/search", "/mentions", "/go", "/more"],
                ["/chat", "/open", "/people", "/login"]
            ),
            ("files", "Files: type a conversation's name", ["/files", "/save", "/open", "/more"], ["/chat", "/attach", "/login"]),
        ])
    func featureAlone(feature: String, screen: String, listed: [String], unlisted: [String]) async {
        let repl = startREPL(" --features \(feature)")
        await terminal.waitFor(screen)
        terminal.type("/help")
        terminal.type("/quit")
        #expect(await repl.value == 0)
        #expect(!terminal.output.contains("error:"), "\(terminal.output)")
        let help = terminal.output.split(separator: "\n").filter { $0.hasPrefix("  /") }.map { String($0.dropFirst(2).prefix { $0 != " " }) }
        for command in listed { #expect(help.contains(command), "\(feature): \(command) missing") }
        for command in unlisted { #expect(!help.contains(command), "\(feature): \(command) listed") }
    }

    @Test("search alone over mock data: /mentions lists Grace's mention of Ada, numbered")
    func mentionsAlone() async {
        let repl = startREPL(" --features search")
        await terminal.waitFor("Search your messages")
        terminal.type("/mentions")
        await terminal.waitFor("#1 ")
        terminal.type("/quit")
        #expect(await repl.value == 0)
        #expect(terminal.output.contains("Engine room · Grace Hopper: @Ada can you check the Bombe's wiring?"), "\(terminal.output)")
    }

    @Test("/search finds messages anywhere, numbered; /go N opens the conversation of result N; /people finds people")
    func searchAndGo() async {
        let repl = startREPL(" --features chat,conversationlist,profile,search")
        await terminal.waitFor("3. Grace Hopper")
        terminal.type("/search ENGINE")
        await terminal.waitFor("#1 ")
        terminal.type("/go 9")
        await terminal.waitFor("No result '9'")
        terminal.type("/go 1")
        // The conversation's own screen, not the result's line.
        await terminal.waitFor("(/more for older messages, /back to leave)")
        terminal.type("/people grace")
        await terminal.waitFor("Grace Hopper  u-grace")
        terminal.type("/quit")
        #expect(await repl.value == 0)
        #expect(!terminal.output.contains("error:"), "\(terminal.output)")
    }

    @Test("help, unknown commands and invalid messages are answered, not fatal")
    func errors() async {
        let repl = startREPL(" --features chat,conversationlist,profile")
        await terminal.waitFor("3. Grace Hopper")
        terminal.type("/help")
        await terminal.waitFor("/open N|NAME")
        terminal.type("/frobnicate")
        terminal.type("/open nobody")
        terminal.type("/chat c-alan")
        await terminal.waitFor("Alan Turing: Can machines think?")
        terminal.type(String(repeating: "x", count: 4_001))
        terminal.endInput()
        #expect(await repl.value == 0)
        #expect(terminal.errors.isEmpty)
        #expect(terminal.output.contains("error: unknown command '/frobnicate'"))
        #expect(terminal.output.contains("error: no conversation 'nobody'"))
        #expect(terminal.output.contains("error: message is 4001 characters; the limit is 4000"))
        #expect(!terminal.output.contains("/login"))
    }

    @Test("/new opens the existing conversation, /group an empty one; /profile edits; /logout returns to sign-in")
    func profileAndLogout() async {
        let repl = startREPL()
        await signIn()
        terminal.type("/new alan@example.com")
        await terminal.waitFor("Alan Turing: Can machines think?")
        terminal.type("/group Tea: grace@example.com")
        await terminal.waitFor("(no messages yet: type to send, /back to leave)")
        terminal.type("/profile")
        await terminal.waitFor("status: Analysing engines")
        terminal.type("/status Writing notes")
        await terminal.waitFor("status: Writing notes")
        terminal.type("/logout")
        await terminal.waitFor("Signed out.")
        terminal.type("/whoami")
        terminal.endInput()
        #expect(await repl.value == 0)
        #expect(terminal.output.contains("error: unknown command '/whoami'"))
    }

    @Test("at sign-in: plain text gets a hint, /signup creates the account; /whoami names it")
    func signUpAndWhoAmI() async {
        let repl = startREPL()
        await terminal.waitFor("/login EMAIL to sign in")
        terminal.type("hello?")
        await terminal.waitFor("Not signed in yet: /login EMAIL or /signup EMAIL NAME.")
        terminal.type("/signup lin@example.com")
        await terminal.waitFor("usage: /signup EMAIL NAME")
        terminal.type("/signup lin@example.com Lin Qiao")
        terminal.type("password123")
        await terminal.waitFor("Signed in as lin@example.com.")
        terminal.type("/whoami")
        await terminal.waitFor("lin@example.com (")
        terminal.type("/quit")
        #expect(await repl.value == 0)
    }
}
