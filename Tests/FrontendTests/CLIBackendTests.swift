import Foundation
import TestSupport
import Testing

/// CLI commands run against each backend a person's CLI can share with others: a SQLite file,
/// and a server over SQLite or PostgreSQL (the memory backend lives and dies with one command).
@MainActor
@Suite("CLI on the shared backends", .serialized, .timeLimit(.minutes(3)))
struct CLIBackendTests {
    let terminal = TestTerminal()

    @Test(
        "tail CHAT --json prints that conversation's edits, deletions and reactions as tail --json does, from --since on, and nothing of another's",
        arguments: TestTerminal.SharedStore.allCases)
    func tailOneConversation(_ store: TestTerminal.SharedStore) async throws {
        let server = try await terminal.serve(store)
        defer { server?.stop() }
        try await signUp("Ada", "Grace")
        #expect(await terminal.run("chats new grace@example.com") == 0)
        #expect(await terminal.run("--profile grace chats new ada@example.com") == 0, "accepts Ada's invitation")
        #expect(
            await terminal.run(arguments: ["chats", "new", "grace@example.com", "--title", "Crew"]) == 0, "Grace is in it at once: she accepted Ada")

        let (one, start) = try await send("Grace", "one")
        let direct = try #require(try lastJSON()["conversationId"] as? String)
        let (x, _) = try await send("Crew", "x")
        for (chat, id) in [("Grace", one), ("Crew", x)] { #expect(await terminal.run(arguments: ["edit", chat, id, "edited \(id)"]) == 0) }
        for (chat, id) in [("Grace", one), ("Crew", x)] { #expect(await terminal.run(arguments: ["react", chat, id, "👍"]) == 0) }
        let (two, _) = try await send("Grace", "two"), (y, _) = try await send("Crew", "y")
        for (chat, id) in [("Grace", two), ("Crew", y)] { #expect(await terminal.run(arguments: ["delete", chat, id]) == 0) }
        // Messages enough that a tail of the conversation's messages alone reaches its count too.
        for text in ["last", "and", "more", "still"] { _ = try await send("Grace", text) }

        #expect(await terminal.run(arguments: ["--profile", "grace", "tail", "--since", start, "--count", "13", "--json"]) == 0)
        let everything = try jsonLines()
        #expect(await terminal.run(arguments: ["--profile", "grace", "tail", "Ada", "--since", start, "--count", "5", "--json"]) == 0)
        let followed = try jsonLines()
        #expect(followed.map { $0["type"] as? String } == ["chat.edited", "chat.reacted", "chat.message", "chat.deleted", "chat.message"])
        #expect(followed.allSatisfy { Self.conversation(of: $0) == direct }, "\(followed)")
        let expected = everything.filter { Self.conversation(of: $0) == direct }.prefix(5)
        #expect(followed.map { $0 as NSDictionary } == expected.map { $0 as NSDictionary }, "not as tail --json prints them")
        try #require(followed.count == 5)
        let deleted = (followed[3]["event"] as? [String: Any])?["message"] as? [String: Any]
        #expect(deleted?["id"] as? String == two && deleted?["deleted"] as? Bool == true && deleted?["text"] as? String == "")
    }

    @Test(
        "after leaving a group, delete names it by its id and deletes her message; the others see it deleted; its title no longer names it",
        arguments: TestTerminal.SharedStore.allCases)
    func deleteAfterLeaving(_ store: TestTerminal.SharedStore) async throws {
        let server = try await terminal.serve(store)
        defer { server?.stop() }
        try await signUp("Ada", "Grace")
        #expect(await terminal.run(arguments: ["--profile", "grace", "chats", "new", "ada@example.com", "--title", "Crew"]) == 0)
        #expect(await terminal.run("invites accept crew") == 0)
        let (mine, _) = try await send("Crew", "I will regret this")
        let crew = try #require(try lastJSON()["conversationId"] as? String)
        #expect(await terminal.run("leave crew") == 0)
        #expect(await terminal.run(arguments: ["delete", "Crew", mine]) == 66, "a title names only a conversation of hers")
        #expect(await terminal.run(arguments: ["delete", crew, mine, "--json"]) == 0, "\(terminal.errors)")
        #expect(try lastJSON()["deleted"] as? Bool == true)
        #expect(await terminal.run(arguments: ["--profile", "grace", "history", "crew", "--json"]) == 0)
        let history = try jsonLines()
        #expect(history.count == 1 && history.first?["id"] as? String == mine && history.first?["deleted"] as? Bool == true, "\(history)")
    }

    @Test(
        "the REPL says on a line of its own when live updates start failing (the server killed) and when they come again; meanwhile its status counts the sends queued"
    )
    func replSaysWhyLiveUpdatesFail() async throws {
        let server = try #require(try await terminal.serve(.remote))
        defer { server.stop() }
        try await signUp("Ada", "Grace")
        #expect(await terminal.run("chats new grace@example.com") == 0)
        #expect(await terminal.run("--profile grace chats new ada@example.com") == 0, "accepts Ada's invitation")
        #expect(await terminal.run(arguments: ["send", "Grace", "hello"]) == 0)
        let ada = TestTerminal(sharing: terminal, interactive: true)
        let repl = Task { await ada.run("repl") }
        await ada.waitFor("1. Grace")
        ada.press("/open grace\r")
        await ada.waitFor("You: hello")
        await server.kill9()
        await ada.waitFor("live updates: live updates failed")
        await ada.waitFor("⚠ live updates failing")
        ada.press("are you there?\r")
        await ada.waitFor("⚠ live updates failing · 1 queued")
        try await server.restart()
        let grace = TestTerminal(sharing: terminal)
        #expect(await grace.run(arguments: ["--profile", "grace", "send", "Ada", "back again"]) == 0, "\(grace.errors)")
        await ada.waitFor("live updates are back")
        await ada.waitFor("Grace: back again")
        ada.press("/quit\r")
        #expect(await repl.value == 0)
    }

    @Test(
        "admin: refused to a non-admin (exit 76); once the operator grants Ada, she lists, suspends and reinstates Grace, who is refused meanwhile",
        arguments: [TestTerminal.SharedStore.sqlite, .remote])
    func admin(_ store: TestTerminal.SharedStore) async throws {
        let server = try await terminal.serve(store)
        defer { server?.stop() }
        try await signUp("Ada", "Grace")
        #expect(await terminal.run("admin users list") == 76)
        #expect(terminal.errors.contains("that needs an admin of this server"), "\(terminal.errors)")
        let file =
            store == .sqlite ? ".local/share/messageai/messageai.sqlite" : "server/server.sqlite"
        let operatorCommand = Process()
        operatorCommand.executableURL = LocalMachine.messageai.deletingLastPathComponent().appendingPathComponent("messageai-server")
        operatorCommand.arguments = ["admin", "grant", "ada@example.com", "--store", terminal.stateDirectory.appendingPathComponent(file).path]
        operatorCommand.standardOutput = FileHandle.nullDevice
        try operatorCommand.run()
        #expect(await operatorCommand.ended() == 0)

        #expect(await terminal.run("admin users list --json") == 0, "\(terminal.errors)")
        let accounts = try jsonLines()
        #expect(accounts.compactMap { $0["email"] as? String } == ["ada@example.com", "grace@example.com"])
        #expect(accounts.first?["adminSince"] != nil && accounts.last?["adminSince"] == nil)
        #expect(await terminal.run("admin users suspend grace@example.com") == 0)
        #expect(terminal.output.contains("grace@example.com  ") && terminal.output.contains("  suspended since "))
        #expect(await terminal.run("--profile grace whoami") != 0, "her session ended")
        #expect(await terminal.run("admin users reinstate grace@example.com") == 0)
        #expect(await terminal.run("admin revoke ada@example.com") == 67, "the last admin stays")
        #expect(await terminal.run("admin audit --json") == 0)
        #expect(try jsonLines().compactMap { $0["action"] as? String }.prefix(3) == ["users.reinstate", "users.suspend", "admins.grant"])
    }

    @Test(
        "delete-account: confirmed by the email and the password; Grace then sees a tombstone from Deleted user, and the email signs up again",
        arguments: TestTerminal.SharedStore.allCases)
    func deleteAccount(_ store: TestTerminal.SharedStore) async throws {
        let server = try await terminal.serve(store)
        defer { server?.stop() }
        try await signUp("Ada", "Grace")
        #expect(await terminal.run("chats new grace@example.com") == 0)
        #expect(await terminal.run("--profile grace chats new ada@example.com") == 0)
        let (said, _) = try await send("Grace", "my ornithopter plans")
        terminal.setInput(["password123"])
        #expect(await terminal.run("delete-account --password-stdin") == 64, "no terminal to confirm on")
        terminal.setInput(["password123"])
        #expect(await terminal.run("delete-account --confirm grace@example.com --password-stdin") == 64)
        #expect(terminal.errors.contains("that is not this account's email (ada@example.com); nothing was deleted"), "\(terminal.errors)")
        terminal.setInput(["wrong-password"])
        #expect(await terminal.run("delete-account --confirm ada@example.com --password-stdin") == 78)
        terminal.setInput(["password123"])
        #expect(await terminal.run("delete-account --confirm ADA@example.com --password-stdin") == 0, "\(terminal.errors)")
        #expect(await terminal.run("whoami") != 0, "signed out")
        #expect(await terminal.run("--profile grace chats --json") == 0)
        #expect(try lastJSON()["title"] as? String == "Deleted user")
        #expect(await terminal.run("--profile grace history 1 --json") == 0)
        let message = try #require(try jsonLines().first { $0["id"] as? String == said })
        #expect(message["deleted"] as? Bool == true && message["text"] as? String == "")
        try await signUp("Ada")
    }

    /// Signs each up, under the profile of their name in lower case (the first under the default profile too).
    @Test(
        "export writes one private JSON document of what Ada may read: her account, her conversation with its names, messages, reactions and files, nothing of others'",
        arguments: TestTerminal.SharedStore.allCases)
    func export(_ store: TestTerminal.SharedStore) async throws {
        let server = try await terminal.serve(store)
        defer { server?.stop() }
        try await signUp("Ada", "Grace", "Alan")
        #expect(await terminal.run("chats new grace@example.com") == 0)
        #expect(await terminal.run("--profile grace chats new ada@example.com") == 0)
        #expect(await terminal.run("--profile grace chats new alan@example.com") == 0)
        #expect(await terminal.run("--profile alan chats new grace@example.com") == 0)
        #expect(await terminal.run(arguments: ["--profile", "grace", "send", "Alan", "between Grace and Alan only"]) == 0)
        let (one, _) = try await send("Grace", "one")
        #expect(await terminal.run(arguments: ["react", "Grace", one, "🦋"]) == 0)
        let (gone, _) = try await send("Grace", "a regret")
        #expect(await terminal.run(arguments: ["delete", "Grace", gone]) == 0)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let page = folder.appendingPathComponent("logbook.txt")
        try Data("moth in relay 70".utf8).write(to: page)
        #expect(await terminal.run(arguments: ["send", "Grace", "the page", "--file", page.path]) == 0, "\(terminal.errors)")

        let document = folder.appendingPathComponent("ada.json")
        #expect(await terminal.run(arguments: ["export", "--to", document.path]) == 0, "\(terminal.errors)")
        let bytes = try Data(contentsOf: document)
        let mode = try FileManager.default.attributesOfItem(atPath: document.path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "readable by its owner alone")
        let json = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        #expect(json["format"] as? String == "messageai-export" && json["version"] as? Int == 1)
        #expect((json["account"] as? [String: Any])?["email"] as? String == "ada@example.com")
        let conversations = try #require(json["conversations"] as? [[String: Any]])
        try #require(conversations.count == 1, "only hers: \(conversations.map { $0["title"] ?? "" })")
        let names = (conversations[0]["members"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names?.sorted() == ["Ada", "Grace"])
        let messages = try #require(conversations[0]["messages"] as? [[String: Any]])
        #expect(messages.map { $0["text"] as? String } == ["the page", "", "one"], "newest first, the deleted one a tombstone")
        #expect(messages[1]["deleted"] as? Bool == true)
        #expect((messages[2]["reactionCounts"] as? [String: Int])?["🦋"] == 1)
        let file = (messages[0]["attachments"] as? [[String: Any]])?.first
        #expect(file?["name"] as? String == "logbook.txt" && file?["size"] as? Int == 16 && (file?["sha256"] as? String)?.count == 64)
        #expect(bytes.range(of: Data("between Grace and Alan".utf8)) == nil && bytes.range(of: Data("a regret".utf8)) == nil)
        #expect(await terminal.run(arguments: ["export", "--to", document.path]) == 67, "an existing file is kept")
        #expect(try Data(contentsOf: document) == bytes)
    }

    private func signUp(_ names: String...) async throws {
        for (index, name) in names.enumerated() {
            terminal.setInput(["password123"])
            let profile = index == 0 ? [] : ["--profile", name.lowercased()]
            #expect(
                await terminal.run(
                    arguments: profile + ["signup", "--email", "\(name.lowercased())@example.com", "--name", name, "--password-stdin"])
                    == 0)
        }
    }

    /// Sends `text` to `chat` as the default profile: the message's id and cursor.
    private func send(_ chat: String, _ text: String) async throws -> (id: String, cursor: String) {
        #expect(await terminal.run(arguments: ["send", chat, text, "--json"]) == 0, "\(terminal.errors)")
        let row = try lastJSON()
        return (try #require(row["id"] as? String), try #require(row["cursor"] as? String))
    }

    private func jsonLines() throws -> [[String: Any]] {
        try terminal.output.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    private func lastJSON() throws -> [String: Any] { try #require(try jsonLines().last) }

    /// The conversation an event line of `tail --json` is of.
    private static func conversation(of line: [String: Any]) -> String? {
        let event = line["event"] as? [String: Any]
        return (event?["message"] as? [String: Any])?["conversationId"] as? String ?? event?["conversationId"] as? String
    }
}
