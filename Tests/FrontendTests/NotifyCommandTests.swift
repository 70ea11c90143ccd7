import Foundation
import TestSupport
import Testing

/// `messageai notify` and the REPL's bell over each backend that other people's CLIs write (a
/// SQLite file, a server over SQLite or PostgreSQL): the messages that notify, one JSON line
/// each, and none that must not.
@MainActor
@Suite("Notify command", .serialized, .timeLimit(.minutes(3)))
struct NotifyCommandTests {
    let terminal = TestTerminal()

    func signUp(_ name: String) async { #expect(await terminal.signUp(name) == 0) }

    /// Ada and Bob on `store`, each on a profile of their own, with a one-to-one they both
    /// accepted; the server to stop, if `store` has one.
    func pair(on store: TestTerminal.SharedStore) async throws -> ServerProcess? {
        let server = try await terminal.serve(store)
        for name in ["Ada", "Bob"] { await signUp(name) }
        #expect(await terminal.run("--profile bob chats new ada@example.com") == 0)
        #expect(await terminal.run("--profile ada chats new bob@example.com") == 0)
        return server
    }

    /// Bob's group Crew, with Ada in it: she accepted Bob, so he adds her without an invitation.
    func crew() async {
        #expect(await terminal.run(arguments: ["--profile", "bob", "chats", "new", "ada@example.com", "--title", "Crew"]) == 0)
    }

    /// `text` sent to `chat` by the person of `profile`.
    func send(_ profile: String, _ chat: String, _ text: String) async {
        #expect(await terminal.run(arguments: ["--profile", profile, "send", chat, text]) == 0)
    }

    /// What `messageai notify`, for Ada on a terminal of its own, printed while `body` ran, up
    /// to the line of `last`.
    func notified(until last: String, while body: () async -> Void) async -> TestTerminal {
        let listener = TestTerminal(sharing: terminal)
        let following = Task { await listener.run("--profile ada notify") }
        await listener.waitForError("Following the messages that notify you")
        await body()
        await listener.waitFor(#""text":"\#(last)""#)
        following.cancel()
        #expect(await following.value == 0)
        return listener
    }

    /// The `text` of each line `listener` printed.
    func texts(_ listener: TestTerminal) -> [String?] {
        listener.output.split(separator: "\n").map { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["text"] as? String }
    }

    @Test(
        "a direct message and a mention in a group notify, one line each; one's own message and a group's plain message do not",
        arguments: TestTerminal.SharedStore.allCases)
    func notices(_ store: TestTerminal.SharedStore) async throws {
        let server = try await pair(on: store)
        defer { server?.stop() }
        await crew()

        let listener = await notified(until: "lunch?") {
            await send("bob", "Crew", "plain news for the crew")
            await send("ada", "Bob", "my own words")
            await send("bob", "Crew", "@Ada the crew needs you")
            await send("bob", "Ada", "lunch?")
        }
        let lines = listener.output.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.map { $0?["reason"] as? String } == ["mention", "direct"], "\(listener.output)")
        #expect(lines.map { $0?["text"] as? String } == ["@Ada the crew needs you", "lunch?"])
        #expect(lines.first??["conversation"] as? String == "Crew" && lines.first??["sender"] as? String == "Bob")
    }

    @Test(
        "the REPL on a terminal rings the bell for a direct message elsewhere, and not for one in the conversation it shows",
        arguments: TestTerminal.SharedStore.allCases)
    func bell(_ store: TestTerminal.SharedStore) async throws {
        let server = try await pair(on: store)
        defer { server?.stop() }
        let ada = TestTerminal(sharing: terminal, interactive: true)
        let repl = Task { await ada.run("--profile ada repl") }
        await ada.waitFor("chats> ")
        await send("bob", "Ada", "are you there?")
        await ada.waitFor("\u{7}")
        let rung = ada.mark
        ada.press("/open bob\r")
        await ada.waitFor("Bob> ", after: rung)
        await send("bob", "Ada", "here I am")
        await ada.waitFor("Bob: here I am", after: rung)
        ada.press("/quit\r")
        #expect(await repl.value == 0)
        #expect(ada.output.filter { $0 == "\u{7}" }.count == 1, "one bell, for the message that came while the list was shown")
    }

    @Test("on the memory backend, a mock user's answer that arrives while the list is shown rings the bell once")
    func memoryBell() async throws {
        let ada = TestTerminal(interactive: true)
        // Grace answers 2 s after a message: time enough to leave her conversation first.
        let repl = Task { await ada.run("repl --backend memory", environment: ["MESSAGEAI_MEMORY_PEER_DELAY_MS": "2000"]) }
        await ada.waitFor("/login EMAIL to sign in")
        ada.press("/login ada@example.com\r")
        ada.press("password123\r")
        await ada.waitFor("chats> ")
        ada.press("/open grace\r")
        await ada.waitFor("Grace Hopper> ")
        ada.press("are you there?\r")
        await ada.waitFor("You: are you there?")
        let sent = ada.mark
        ada.press("/back\r")
        await ada.waitFor("chats> ", after: sent)
        await ada.waitFor("\u{7}", after: sent)
        ada.press("/quit\r")
        #expect(await repl.value == 0)
        #expect(ada.output.filter { $0 == "\u{7}" }.count == 1, "one bell, for Grace's answer")
    }

    @Test(
        "a muted one-to-one tells of nothing; a group muted but for mentions tells of mentions; unmuted, it tells again",
        arguments: TestTerminal.SharedStore.allCases)
    func muted(_ store: TestTerminal.SharedStore) async throws {
        let server = try await pair(on: store)
        defer { server?.stop() }
        await crew()
        #expect(await terminal.run("--profile ada mute Bob") == 0 && terminal.output == "Muted.\n")
        #expect(
            await terminal.run("--profile ada mute Crew --mentions --until 2h") == 0 && terminal.output.hasPrefix("Muted but for mentions until "))
        #expect(await terminal.run("--profile ada mute Crew --until yesterday") == 65)

        let listener = await notified(until: "back again") {
            await send("bob", "Ada", "muted words")
            await send("bob", "Crew", "plain crew news")
            await send("bob", "Crew", "@Ada still needed")
            #expect(await terminal.run("--profile ada unmute Bob") == 0 && terminal.output == "Standard notifications again.\n")
            await send("bob", "Ada", "back again")
        }
        #expect(texts(listener) == ["@Ada still needed", "back again"], "\(listener.output)")
    }

    @Test(
        "no one blocked tells you of anything, not even by a mention in a group you share; unblocked, they do again",
        arguments: TestTerminal.SharedStore.allCases)
    func blocked(_ store: TestTerminal.SharedStore) async throws {
        let server = try await pair(on: store)
        defer { server?.stop() }
        await crew()
        #expect(await terminal.run("--profile ada block bob@example.com") == 0)

        let listener = await notified(until: "@Ada and now?") {
            await send("bob", "Crew", "@Ada do you hear me?")
            #expect(await terminal.run("--profile ada unblock bob@example.com") == 0)
            await send("bob", "Crew", "@Ada and now?")
        }
        #expect(texts(listener) == ["@Ada and now?"], "\(listener.output)")
    }
}
