import Foundation
import TestSupport
import Testing

/// The README's example bot (`Tools/Examples/ping-bot.sh`), run as a user runs it: a shell
/// script over `messageai tail --json` and `messageai send` with a bot's token, against a server.
@MainActor
@Suite("Example bot", .serialized, .timeLimit(.minutes(2)))
struct ExampleBotTests {
    let terminal = TestTerminal()

    @Test("ping-bot.sh answers !ping with pong as its bot, with a token scoped to the group, and keeps its cursor")
    func answersPing() async throws {
        let server = try await terminal.serve(.remote)
        defer { server?.stop() }
        #expect(await terminal.signUp("Ada") == 0)
        #expect(await terminal.signUp("Grace") == 0)
        #expect(await terminal.run(arguments: ["--profile", "ada", "chats", "new", "grace@example.com", "--title", "Ops"]) == 0)
        #expect(await terminal.run("--profile ada bots create Pinger") == 0)
        #expect(await terminal.run("--profile ada bots add Pinger Ops") == 0)
        #expect(await terminal.run("--profile ada --json tokens create --bot Pinger --scope read:Ops,send:Ops") == 0)
        let token = try #require(try JSONSerialization.jsonObject(with: Data(terminal.output.utf8)) as? [String: Any])["token"] as? String
        let state = terminal.stateDirectory.appendingPathComponent("ping-bot.cursor")

        let bot = Process()
        bot.executableURL = URL(fileURLWithPath: "/bin/sh")
        bot.arguments = [Self.script.path, "Ops", state.path]
        let path = LocalMachine.messageai.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        bot.environment = terminal.environment.merging(["MESSAGEAI_TOKEN": try #require(token), "PATH": path]) { $1 }
        bot.standardOutput = FileHandle.nullDevice
        try bot.run()
        // Foundation starts it in a process group of its own: its tail and sends end with it.
        defer { kill(-bot.processIdentifier, SIGTERM) }

        // Pinged until the bot's tail is live and answers (a ping before it listens goes unheard).
        var answered = false
        let started = ContinuousClock.now
        while !answered, ContinuousClock.now - started < .seconds(30) {
            #expect(await terminal.run(arguments: ["--profile", "ada", "send", "Ops", "!ping"]) == 0)
            #expect(await terminal.run("--profile ada history Ops") == 0)
            answered = terminal.output.contains("Pinger (bot): pong")
        }
        #expect(answered, "no pong: \(terminal.output)")
        let cursor = try String(contentsOf: state, encoding: .utf8)
        #expect(cursor.contains("."), "the cursor it saw last is kept: \(cursor)")
    }

    @Test("the README shows the script as it is in the repository")
    func readmeShowsTheScript() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = try String(contentsOf: Self.script, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.count == 6)
        #expect(readme.contains("```sh\n" + lines.joined(separator: "\n") + "\n```"), "the README's copy of ping-bot.sh differs from it")
    }

    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The script, beside the sources.
    static let script = root.appendingPathComponent("Tools/Examples/ping-bot.sh")
}
