import AppContainer
import Foundation
import GRDB
import Kernel
import Testing

@MainActor
@Suite("CLI", .timeLimit(.minutes(1)))
struct CLITests {
    let terminal = TestTerminal()

    /// The memory backend keeps sessions only as long as its process; without the Auth feature
    /// each run signs the demo user (Ada) in, so one-shot commands can use the seeded data.
    func signIn() {
        terminal.extraEnvironment["MESSAGEAI_FEATURES"] = "profile,conversationlist,chat"
    }

    func jsonLines() throws -> [[String: Any]] {
        try terminal.output.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test("--help lists every feature's subcommands")
    func help() async {
        #expect(await terminal.run("--help") == 0)
        for command in [
            "signup", "login", "whoami", "profile", "users", "chats", "send", "history", "read", "tail", "config", "repl", "tui", "notify",
        ] {
            #expect(terminal.output.contains("  \(command)"), "missing \(command)")
        }
    }

    @Test("--help names each setting's environment variable, the loader reads exactly that name, and a near miss is warned about")
    func environmentVariables() async throws {
        #expect(await terminal.run("--help") == 0)
        let help = terminal.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let values = [
            "backend": "memory", "frontend": "cli", "features": "all", "profile": "p", "sqlite.path": "/tmp/x.sqlite",
            "remote.url": "http://127.0.0.1:1", "remote.timeoutSeconds": "7", "remote.certificates": "/tmp/c.pem",
            "state.dir": terminal.stateDirectory.path, "auth.bcryptCost": "5", "auth.sessionIdleDays": "3", "memory.latencyMs": "1",
            "memory.failureRate": "0.5", "memory.peerDelayMs": "9", "notify.style": "osc9", "notify.command": "/usr/local/bin/push",
            "files.maxBytes": "1000", "tui.pictures": "sixel",
        ]
        for key in Settings.table.keys {
            let variable = Settings.table.environmentVariable(of: key)
            #expect(help.contains("\(key.name), \(variable):"), "--help does not name \(variable)")
            let value = try #require(values[key.name], "no test value for \(key.name)")
            #expect(await terminal.run("config --json", environment: [variable: value]) == 0)
            let row = try jsonLines().first { $0["key"] as? String == key.name }
            #expect(
                row?["source"] as? String == "environment" && row?["variable"] as? String == variable,
                "\(variable) was not read: \(String(describing: row))")
        }
        #expect(await terminal.run("config", environment: ["MESSAGEAI_AUTH_BCRYPTCOST": "5", "MESSAGEAI_SERVER_PORT": "1"]) == 0)
        #expect(terminal.errors == "warning: MESSAGEAI_AUTH_BCRYPTCOST names no setting and is ignored; did you mean MESSAGEAI_AUTH_BCRYPT_COST?\n")
        #expect(terminal.output.contains(/auth\.bcryptCost +4 +\(environment\)/), "the near miss was read")
    }

    @Test("usage errors exit 64; not signed in exits 77")
    func usageAndSession() async {
        #expect(await terminal.run("frobnicate") == 64)
        #expect(await terminal.run("whoami --backend memory") == 77)
        #expect(terminal.errors.contains("not signed in"))
    }

    @Test("login reads the password from stdin, wrong passwords exit 78, and the session persists per profile (sqlite)")
    func login() async throws {
        terminal.setInput(["password123"])
        #expect(await terminal.run("signup --email ada@example.com --name Ada --password-stdin") == 0)
        #expect(await terminal.run("logout") == 0)
        terminal.setInput(["not-the-password"])
        #expect(await terminal.run("login --email ada@example.com --password-stdin") == 78)
        terminal.setInput(["password123"])
        #expect(await terminal.run("login --email ada@example.com --password-stdin") == 0)
        #expect(terminal.output.hasPrefix("Signed in as ada@example.com ("))
        #expect(await terminal.run("whoami") == 0)
        #expect(terminal.output.contains("ada@example.com"))
        #expect(await terminal.run("--profile other whoami") == 77)
        let session = terminal.stateDirectory.appendingPathComponent("sessions/default-sqlite.json")
        let mode = try? FileManager.default.attributesOfItem(atPath: session.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(await terminal.run("logout") == 0)
        #expect(await terminal.run("whoami") == 77)
    }

    @Test("on a terminal a new password is asked twice, and two that differ change nothing (sqlite)")
    func newPasswordTwice() async throws {
        let terminal = TestTerminal(interactive: true)
        terminal.setInput(["password123", "password132"])
        #expect(await terminal.run("signup --email ada@example.com --name Ada") == 65)
        #expect(terminal.errors.contains("the two passwords typed differ"))
        terminal.setInput(["password123"])
        #expect(await terminal.run("login --email ada@example.com --password-stdin") == 78, "an account was made")
        terminal.setInput(["password123", "password123"])
        #expect(await terminal.run("signup --email ada@example.com --name Ada") == 0)
        terminal.setInput(["password123", "new-password", "new-passwrod"])
        #expect(await terminal.run("passwd") == 65)
        terminal.setInput(["password123", "new-password", "new-password"])
        #expect(await terminal.run("passwd") == 0, "the first password still holds")
        terminal.setInput(["new-password"])
        #expect(await terminal.run("login --email ada@example.com --password-stdin") == 0)
    }

    @Test("a forged session file is refused (77) and a copied token stops working once its session signs out (sqlite)")
    func forgedSessionFile() async throws {
        terminal.setInput(["password123"])
        #expect(await terminal.run("signup --email ada@example.com --name Ada --password-stdin --json") == 0)
        let adaID = try #require(try jsonLines().first?["id"] as? String)
        let sessionFile = terminal.stateDirectory.appendingPathComponent("sessions/default-sqlite.json")
        let stolen = try Data(contentsOf: sessionFile)
        #expect(await terminal.run("logout") == 0)
        try Data(#"{"userID":"\#(adaID)","email":"ada@example.com","token":"forged"}"#.utf8).write(to: sessionFile)
        #expect(await terminal.run("chats") == 77)
        #expect(await terminal.run(arguments: ["profile", "set", "--status", "hacked"]) == 77)
        try stolen.write(to: sessionFile)
        #expect(await terminal.run("chats") == 77)
    }

    @Test("another person's message cannot forge a line on your screen, and stored controls show as codes (sqlite)")
    func forgedLines() async throws {
        terminal.setInput(["password123"])
        #expect(await terminal.run("signup --email ada@example.com --name Ada --password-stdin") == 0)
        terminal.setInput(["password123"])
        #expect(await terminal.run("--profile m signup --email m@example.com --name Mallory --password-stdin") == 0)
        #expect(await terminal.run("--profile m chats new ada@example.com") == 0)
        #expect(await terminal.run(arguments: ["--profile", "m", "send", "Ada", "ok\r\n2. Bank [group] (3 unread)"]) == 0)
        #expect(await terminal.run("chats") == 0)
        #expect(terminal.output.hasPrefix("No conversations yet"), "Mallory's chat is only an invitation")
        #expect(await terminal.run("invites") == 0)
        #expect(terminal.output.hasPrefix("1. Mallory  "))
        #expect(await terminal.run("invites accept mallory") == 0)
        #expect(await terminal.run("chats") == 0)
        let rows = terminal.output.split(separator: "\n")
        #expect(rows.count == 1 && rows[0].hasPrefix("1. Mallory (1 unread)  ") && rows[0].hasSuffix("  ok …"))
        #expect(await terminal.run("history mallory") == 0)
        #expect(terminal.output.hasSuffix("] Mallory: ok\n    2. Bank [group] (3 unread)\n"))
        let database = try DatabaseQueue(path: terminal.stateDirectory.appendingPathComponent(".local/share/messageai/messageai.sqlite").path)
        try await database.write { db in
            try db.execute(sql: "UPDATE messages SET text = ?", arguments: ["\u{1B}[2J\rPWNED\u{202E}"])
        }
        #expect(await terminal.run("history mallory") == 0)
        #expect(terminal.output.hasSuffix("] Mallory: ␛[2J␍PWNED<U+202E>\n"))
        #expect(await terminal.run("chats") == 0)
        #expect(!terminal.output.unicodeScalars.contains { $0.isControl && $0 != "\n" })
    }

    @Test("a password is never read from a non-terminal without --password-stdin")
    func passwordNeedsStdinFlag() async {
        #expect(await terminal.run("login --email ada@example.com --backend memory") == 64)
        #expect(terminal.errors.contains("--password-stdin"))
    }

    @Test("sign-up: bad input exits 65, a taken email 67")
    func signUp() async {
        terminal.setInput(["password123"])
        #expect(await terminal.run(arguments: ["signup", "--email", "nope", "--name", "N", "--password-stdin", "--backend", "memory"]) == 65)
        terminal.setInput(["password123"])
        #expect(
            await terminal.run(arguments: ["signup", "--email", "ada@example.com", "--name", "Ada", "--password-stdin", "--backend", "memory"]) == 67)
        terminal.setInput(["password123"])
        #expect(
            await terminal.run(arguments: [
                "--json", "signup", "--email", "New@Example.com", "--name", "New One", "--password-stdin", "--backend", "memory",
            ]) == 0)
        #expect(terminal.output.contains(#""email":"new@example.com""#))
    }

    @Test("chats: text rows and JSON rows with stable fields")
    func chats() async throws {
        signIn()
        #expect(await terminal.run("chats --backend memory") == 0)
        #expect(terminal.output.hasPrefix("1. Engine room [group]"))
        #expect(await terminal.run("--json chats --backend memory") == 0)
        let rows = try jsonLines()
        #expect(rows.count == 3)
        for field in ["id", "title", "isGroup", "memberIds", "unreadCount", "lastActivityAt", "lastMessage"] {
            #expect(rows.allSatisfy { $0[field] != nil }, "missing \(field)")
        }
    }

    @Test("send, history and read; names resolve, unknown conversations exit 66")
    func sendAndHistory() async throws {
        signIn()
        #expect(await terminal.run(arguments: ["send", "Engine room", "hello engines", "--backend", "memory", "--json"]) == 0)
        let sent = try #require(try jsonLines().first)
        #expect(sent["state"] as? String == "sent" && sent["conversationId"] as? String == "c-engine")
        #expect(await terminal.run(arguments: ["history", "engine", "--limit", "2", "--backend", "memory", "--json"]) == 0)
        let history = try jsonLines()
        #expect(history.count == 2)
        for field in ["id", "conversationId", "senderId", "text", "sentAt", "state"] {
            #expect(history.allSatisfy { $0[field] != nil }, "missing \(field)")
        }
        #expect(await terminal.run("history grace --backend memory") == 0)
        #expect(terminal.output.contains("Grace Hopper: Found a moth in relay 70 🦋"))
        #expect(await terminal.run("read grace --backend memory") == 0)
        #expect(await terminal.run("history nobody --backend memory") == 66)
        #expect(await terminal.run("send grace  --backend memory") == 64)
    }

    @Test("send --id: a retried send is stored once and prints the stored message; another text under the id is a conflict (sqlite)")
    func sendWithID() async throws {
        terminal.setInput(["password123"])
        #expect(await terminal.run("signup --email ada@example.com --name Ada --password-stdin") == 0)
        terminal.setInput(["password123"])
        #expect(await terminal.run("--profile grace signup --email grace@example.com --name Grace --password-stdin") == 0)
        #expect(await terminal.run("chats new grace@example.com") == 0)
        #expect(await terminal.run(arguments: ["send", "Grace", "only once", "--id", "script-42", "--json"]) == 0)
        let first = try #require(try jsonLines().first)
        #expect(await terminal.run(arguments: ["send", "Grace", "only once", "--id", "script-42", "--json"]) == 0)
        let again = try #require(try jsonLines().first)
        #expect(first["id"] as? String == "script-42" && again["id"] as? String == "script-42")
        #expect(first["sentAt"] as? String == again["sentAt"] as? String, "the retry prints the stored message")
        #expect(await terminal.run("history Grace --json") == 0)
        #expect(try jsonLines().filter { $0["text"] as? String == "only once" }.count == 1)
        #expect(await terminal.run(arguments: ["send", "Grace", "different text", "--id", "script-42"]) == 67)
        #expect(await terminal.run(arguments: ["send", "Grace", "bad id", "--id", "no spaces"]) == 65)
        #expect(terminal.errors.contains("--id 'no spaces' is not an id"))
    }

    @Test(
        "tail --json prints every event with its cursor (schema v1), tail CHAT --json its messages in the same schema; tail --since resumes right after it (sqlite)"
    )
    func tailSince() async throws {
        terminal.setInput(["password123"])
        #expect(await terminal.run("signup --email ada@example.com --name Ada --password-stdin") == 0)
        terminal.setInput(["password123"])
        #expect(await terminal.run("--profile grace signup --email grace@example.com --name Grace --password-stdin") == 0)
        #expect(await terminal.run("chats new grace@example.com") == 0)
        #expect(await terminal.run("--profile grace chats new ada@example.com") == 0, "accepts Ada's invitation")
        var cursors: [String] = []
        for text in ["one", "two", "three"] {
            #expect(await terminal.run(arguments: ["send", "Grace", text, "--json"]) == 0)
            cursors.append(try #require(try jsonLines().first?["cursor"] as? String))
        }
        #expect(await terminal.run("profile set --name Ada2") == 0)
        #expect(await terminal.run(arguments: ["--profile", "grace", "tail", "--since", cursors[0], "--count", "3", "--json"]) == 0)
        let resumed = try jsonLines()
        #expect(resumed.map { $0["v"] as? Int } == [1, 1, 1])
        #expect(resumed.map { $0["type"] as? String } == ["chat.message", "chat.message", "profile.renamed"])
        #expect(resumed.map { (($0["event"] as? [String: Any])?["message"] as? [String: Any])?["text"] as? String } == ["two", "three", nil])
        #expect(resumed.prefix(2).map { $0["cursor"] as? String } == Array(cursors[1...]))
        #expect((resumed.last?["event"] as? [String: Any])?["displayName"] as? String == "Ada2")
        // With a conversation: the same schema, its messages only.
        #expect(await terminal.run(arguments: ["--profile", "grace", "tail", "Ada2", "--since", cursors[0], "--count", "2", "--json"]) == 0)
        let inChat = try jsonLines()
        #expect(inChat.map { $0["type"] as? String } == ["chat.message", "chat.message"] && inChat.map { $0["v"] as? Int } == [1, 1])
        #expect(inChat.map { $0["cursor"] as? String } == Array(cursors[1...]))
        #expect(await terminal.run(arguments: ["tail", "--since", "elsewhere.1", "--count", "1"]) == 79)
        #expect(terminal.errors.contains("is from another store"))
        #expect(await terminal.run(arguments: ["tail", "--since", "not a cursor", "--count", "1"]) == 65)
    }

    @Test("send - reads the text from standard input")
    func sendFromStdin() async throws {
        signIn()
        terminal.setInput(["first line", "second line"])
        #expect(await terminal.run("send grace - --backend memory --json") == 0)
        #expect(try jsonLines().first?["text"] as? String == "first line\nsecond line")
    }

    @Test("profile and users commands")
    func profiles() async {
        signIn()
        #expect(await terminal.run("profile show grace@example.com --backend memory") == 0)
        #expect(terminal.output.contains("Grace Hopper <grace@example.com>"))
        #expect(await terminal.run(arguments: ["profile", "set", "--status", "Counting", "--backend", "memory"]) == 0)
        #expect(terminal.output.contains("status: Counting"))
        #expect(await terminal.run("profile set --backend memory") == 64)
        #expect(await terminal.run("users search al --backend memory") == 0)
        #expect(terminal.output == "Alan Turing  u-alan\n")
        #expect(await terminal.run("users search al --limit 51 --backend memory") == 64)
        #expect(await terminal.run("users search al --limit 0 --backend memory") == 64)
        #expect(await terminal.run("chats new nobody@example.com --backend memory") == 66)
    }

    @Test("config shows each value's source; bad values name their key")
    func config() async throws {
        #expect(await terminal.run("config --profile work", environment: ["MESSAGEAI_MEMORY_LATENCY_MS": "5"]) == 0)
        #expect(terminal.output.contains("profile                work  (command line)"))
        #expect(terminal.output.contains("memory.latencyMs       5  (environment)"))
        #expect(terminal.output.contains("backend                sqlite  (default)"))
        #expect(terminal.output.contains("sqlite.path            \(terminal.stateDirectory.path)/.local/share/messageai/messageai.sqlite  (default)"))
        let file = terminal.stateDirectory.appendingPathComponent("config.yaml")
        try FileManager.default.createDirectory(at: terminal.stateDirectory, withIntermediateDirectories: true)
        try "backend: memory\nmemory:\n  failureRate: 0.5\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(await terminal.run("config --config \(file.path)") == 0)
        #expect(terminal.output.contains("memory.failureRate     0.5  (\(file.path))"))
        #expect(await terminal.run("config --backend carrier-pigeon") == 64)
        #expect(terminal.errors.contains("configuration key 'backend'"))
        #expect(await terminal.run("config --config /nonexistent.yaml") == 64)
    }

    @Test("--help lists only the enabled features' commands")
    func helpOfEnabledFeatures() async {
        #expect(await terminal.run("--features chat --help") == 0)
        for command in ["send", "history", "read", "tail", "config", "repl", "tui", "notify"] {
            #expect(terminal.output.contains("  \(command) "), "missing \(command)")
        }
        for command in ["signup", "login", "chats", "profile", "users"] { #expect(!terminal.output.contains("  \(command) "), "listed \(command)") }
    }

    @Test("a disabled feature's commands refuse to run")
    func disabledFeature() async {
        #expect(await terminal.run("chats --backend memory --features auth,chat") == 64)
        #expect(terminal.errors.contains("conversationlist feature is disabled"))
    }

    @Test("passwd checks the current password and replaces it (sqlite)")
    func changePassword() async {
        let database = ["MESSAGEAI_SQLITE_PATH": terminal.stateDirectory.appendingPathComponent("passwd.sqlite").path]
        terminal.setInput(["first-password"])
        #expect(await terminal.run("signup --email pat@example.com --name Pat --password-stdin", environment: database) == 0)
        terminal.setInput(["wrong-password", "second-password"])
        #expect(await terminal.run("passwd --password-stdin", environment: database) == 78)
        terminal.setInput(["first-password", "second-password"])
        #expect(await terminal.run("passwd --password-stdin", environment: database) == 0)
        #expect(terminal.output == "Password changed.\n")
        terminal.setInput(["first-password"])
        #expect(await terminal.run("login --email pat@example.com --password-stdin", environment: database) == 78)
        terminal.setInput(["second-password"])
        #expect(await terminal.run("login --email pat@example.com --password-stdin", environment: database) == 0)
    }
}
