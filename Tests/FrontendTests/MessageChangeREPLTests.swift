import Foundation
import TestSupport
import Testing

/// Edits, deletions and reactions in a REPL: its own through `/edit`, `/recent`, `/delete` and
/// `/react`, and another person's, made with `messageai` in processes of their own, shown live
/// as lines saying what changed, on the SQLite backend.
@MainActor
@Suite("Message changes in the REPL", .timeLimit(.minutes(3)))
struct MessageChangeREPLTests {
    /// `messageai ARGUMENTS` as its own process on a terminal's files: its exit status and output.
    struct Messageai: Sendable {
        let environment: [String: String]

        func callAsFunction(_ arguments: String..., input: String? = nil) async throws -> SpawnedProgram.Run {
            let argv = [LocalMachine.messageai.path] + arguments
            let shell = ["/bin/sh", "-c", (input.map { "printf '%s\\n' '\($0)' | " } ?? "") + "exec \"$@\"", "messageai"] + argv
            return try await OwnThread.run { [environment] in try SpawnedProgram.run(shell, environment: environment) }
        }
    }

    /// Ada and Bob signed up on `terminal`'s files (Bob with `--profile bob`), with a
    /// conversation of theirs that Bob accepted: its id, and `messageai` on those files.
    static func adaAndBob(on terminal: TestTerminal) async throws -> (chat: String, messageai: Messageai) {
        let messageai = Messageai(environment: terminal.environment)
        #expect(try await messageai("signup", "--email", "ada@example.com", "--name", "Ada", "--password-stdin", input: "password-ada").status == 0)
        #expect(
            try await messageai(
                "--profile", "bob", "signup", "--email", "bob@example.com", "--name", "Bob", "--password-stdin",
                input: "password-bob"
            ).status == 0)
        let started = try await messageai("--json", "chats", "new", "bob@example.com")
        let chat = try #require(started.output.firstMatch(of: /"id":"([0-9a-z]+)"/).map { String($0.output.1) }, "\(started.output)")
        #expect(try await messageai("--profile", "bob", "invites", "accept", chat).status == 0)
        return (chat, messageai)
    }
    @Test(
        "another person's edit, deletion, reaction, reply and reading arrive as lines; /edit, /recent, /delete, /react, /reply, /seen and /receipts are your own"
    )
    func changesOnScreen() async throws {
        let terminal = TestTerminal()
        let (chat, messageai) = try await Self.adaAndBob(on: terminal)
        #expect(try await messageai("--profile", "bob", "send", chat, "helo ada", "--id", "b1").status == 0)

        let repl = Task { await terminal.run("repl") }
        await terminal.waitFor("1. Bob")
        terminal.type("/chat \(chat)")
        await terminal.waitFor("Bob: helo ada")
        #expect(try await messageai("--profile", "bob", "edit", chat, "b1", "hello, Ada").status == 0)
        await terminal.waitFor("Bob edited a message from ")
        await terminal.waitFor(": hello, Ada")
        #expect(try await messageai("--profile", "bob", "delete", chat, "b1").status == 0)
        await terminal.waitFor("Bob deleted a message from ")

        terminal.type("my typo")
        await terminal.waitFor("You: my typo")
        terminal.type("/edit my fix")
        await terminal.waitFor("You edited a message from ")
        await terminal.waitFor(": my fix")
        #expect(try await messageai("--profile", "bob", "send", chat, "lunch?", "--id", "b2").status == 0)
        await terminal.waitFor("Bob: lunch?")
        terminal.type("/react 🎉")
        await terminal.waitFor("Bob's message now has [🎉 1]")
        #expect(try await messageai("--profile", "bob", "react", chat, "b2", "👍").status == 0)
        await terminal.waitFor("Bob's message now has [🎉 1 👍 1]")
        terminal.type("/react ab")
        await terminal.waitFor("a reaction is one emoji")
        terminal.type("/recent")
        await terminal.waitFor("#3 ")
        terminal.type("/delete #9")
        await terminal.waitFor("No message #9 here")
        terminal.type("/delete #2")
        await terminal.waitFor("You deleted a message from ")
        terminal.type("/reply lunch it is")
        await terminal.waitFor("↳ replying to Bob: \u{201C}lunch?\u{201D}")
        await terminal.waitFor("You: lunch it is")
        #expect(try await messageai("--profile", "bob", "send", chat, "see you", "--reply-to", "b1").status == 0)
        await terminal.waitFor("↳ replying to Bob: a deleted message")
        terminal.type("see you there")
        await terminal.waitFor("You: see you there")
        #expect(try await messageai("--profile", "bob", "read", chat).status == 0)
        await terminal.waitFor("✓ seen by Bob (up to \u{201C}see you there\u{201D}")
        terminal.type("/seen")
        await terminal.waitFor("Bob: read up to \u{201C}see you there\u{201D}")
        terminal.type("/receipts private")
        await terminal.waitFor("Your read receipts are private")
        terminal.type("/seen")
        await terminal.waitFor("No read receipts to show")
        terminal.type("/quit")
        #expect(await repl.value == 0)
        let history = try await messageai("--json", "history", chat).output
        #expect(history.components(separatedBy: #""deleted":true,"edited""#).count == 3, "both messages are tombstones: \(history)")
        #expect(history.contains(#""replyTo":{"deleted":true"#), "the reply to a deleted message says so: \(history)")
        #expect(!history.contains("my fix") && !history.contains("hello, Ada"), "a deleted text is still in history")
    }

    @Test(
        "typing shows beside the prompt: another person's, gone within 6 s of a kill -9 of their process; your own reaches them as you type and stops when you send"
    )
    func typingOnScreen() async throws {
        let ada = TestTerminal(interactive: true)
        let (chat, messageai) = try await Self.adaAndBob(on: ada)
        let environment = ada.environment
        #expect(try await messageai("--profile", "bob", "send", chat, "helo ada").status == 0)

        let adaREPL = Task { await ada.run("repl") }
        await ada.waitFor("1. Bob")
        ada.press("/chat \(chat)\r")
        await ada.waitFor("Bob: helo ada")
        let typist = try Child(LocalMachine.messageai.path, ["--profile", "bob", "typing", chat, "--seconds", "60"], environment: environment)
        await ada.waitFor("Bob is typing… Bob> ")
        let beforeKill = ada.mark
        await typist.kill9()
        let killed = ContinuousClock.now
        // The line drawn again with the prompt alone.
        await ada.waitFor("\r\u{1B}[KBob> ", after: beforeKill)
        #expect(ContinuousClock.now - killed <= .seconds(6), "Bob showed as typing for \(ContinuousClock.now - killed) after his process was killed")

        // Bob's REPL, another process's files on the same machine: Ada's typing reaches it.
        let bob = TestTerminal(sharing: ada, interactive: true)
        let bobREPL = Task { await bob.run("--profile bob repl") }
        await bob.waitFor("1. Ada")
        bob.press("/chat \(chat)\r")
        await bob.waitFor("You: helo ada")
        let beforeTyping = bob.mark
        ada.press("hi b")
        await bob.waitFor("Ada is typing… Ada> ", after: beforeTyping)
        let beforeSending = bob.mark
        ada.press("ob\r")
        await bob.waitFor("Ada: hi bob", after: beforeSending)
        await bob.waitFor("\r\u{1B}[KAda> ", after: beforeSending)
        for terminal in [ada, bob] { terminal.press("/quit\r") }
        #expect(await adaREPL.value == 0)
        #expect(await bobREPL.value == 0)
    }
}

extension MessageChangeREPLTests {
    @Test(
        "Tab completes @Name; the one named sees it in `messageai mentions`, in the hotlist ([1: Ada 1 @1]) and the list, /mentions opens it, and its sender shows yellow"
    )
    func mentionsOnScreen() async throws {
        let ada = TestTerminal(interactive: true)
        let (chat, messageai) = try await Self.adaAndBob(on: ada)
        let adaREPL = Task { await ada.run("repl") }
        await ada.waitFor("1. Bob")
        ada.press("/chat \(chat)\r")
        await ada.waitFor("(no messages yet")
        ada.press("@B\t")
        await ada.waitFor("@Bob ")
        ada.press("the boiler\r")
        await ada.waitFor("You: @Bob the boiler")
        ada.press("/quit\r")
        #expect(await adaREPL.value == 0)
        #expect(!ada.output.contains("/more for older messages"), "the first message of an empty conversation has none older")

        let mentions = try await messageai("--profile", "bob", "mentions")
        #expect(mentions.status == 0 && mentions.output.contains("Ada: @Bob the boiler"), "\(mentions.output)")
        let cursor = try #require(mentions.output.firstMatch(of: /--since ([0-9]+)/).map { String($0.output.1) }, "\(mentions.output)")
        #expect(try await messageai("--profile", "bob", "mentions", "--since", cursor).output.contains("No new mentions."))
        #expect(try await messageai("--profile", "bob", "chats", "list").output.contains("(1 unread, 1 @you)"))

        let bob = TestTerminal(sharing: ada, interactive: true)
        let bobREPL = Task { await bob.run("--profile bob repl") }
        await bob.waitFor("[1: Ada 1 @1]")
        bob.press("/mentions\r")
        await bob.waitFor("Ada: @Bob the boiler")
        let beforeGo = bob.mark
        bob.press("/go 1\r")
        await bob.waitFor("Ada: @Bob the boiler", after: beforeGo)
        bob.press("/quit\r")
        #expect(await bobREPL.value == 0)

        // On a colour terminal the sender of a message that mentions you is yellow, others bold.
        let colored = TestTerminal(sharing: ada, colored: true)
        let coloredREPL = Task { await colored.run("--profile bob repl") }
        colored.type("/chat \(chat)")
        await colored.waitFor("\u{1B}[33mAda\u{1B}[0m: @Bob the boiler")
        colored.type("/quit")
        #expect(await coloredREPL.value == 0)
    }
}
