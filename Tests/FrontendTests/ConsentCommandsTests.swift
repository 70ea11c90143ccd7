import Foundation
import Testing

/// Invitations, leaving, blocking and the paged list, through the CLI and the REPL as people
/// use them, on the SQLite backend with a terminal per person.
@MainActor
@Suite("Consent commands", .timeLimit(.minutes(1)))
struct ConsentCommandsTests {
    let terminal = TestTerminal()

    func signUp(_ name: String) async { #expect(await terminal.signUp(name) == 0) }

    @Test("invites lists, accept joins, decline refuses; leave, block, unblock and blocked do what they say")
    func cli() async throws {
        for name in ["Ada", "Mallory", "Grace"] { await signUp(name) }
        #expect(await terminal.run("--profile mallory chats new ada@example.com") == 0)
        #expect(
            await terminal.run(arguments: ["--profile", "grace", "chats", "new", "mallory@example.com", "ada@example.com", "--title", "Book club"])
                == 0)
        #expect(await terminal.run("--profile ada invites") == 0)
        let lines = terminal.output.split(separator: "\n")
        #expect(lines.count == 2 && lines.contains { $0.contains(". Book club [group] from Grace, 1 member  ") }, "\(lines)")
        #expect(await terminal.run("--profile ada invites decline mallory") == 0 && terminal.output == "Declined.\n")
        #expect(await terminal.run("--profile ada invites accept book --json") == 0)
        #expect(terminal.output.contains("\"title\":\"Book club\""))
        #expect(await terminal.run("--profile ada invites accept nobody") == 66)
        #expect(await terminal.run("--profile ada chats") == 0 && terminal.output.hasPrefix("1. Book club [group]"))

        #expect(await terminal.run("--profile ada leave book") == 0 && terminal.output == "Left.\n")
        #expect(await terminal.run("--profile ada chats") == 0 && terminal.output.hasPrefix("No conversations yet"))
        #expect(await terminal.run("--profile ada block mallory@example.com") == 0)
        #expect(await terminal.run("--profile ada blocked") == 0 && terminal.output.hasPrefix("Mallory  "))
        #expect(await terminal.run("--profile mallory chats new ada@example.com") == 0)
        #expect(await terminal.run("--profile ada invites") == 0 && terminal.output == "No invitations.\n", "a blocked person invited her again")
        #expect(await terminal.run("--profile ada block ada@example.com") == 65)
        #expect(await terminal.run("--profile ada unblock mallory@example.com") == 0)
        #expect(await terminal.run("--profile ada blocked") == 0 && terminal.output == "Nobody.\n")
    }

    @Test("chats new says who was not invited, and why")
    func notInvited() async throws {
        for name in ["Ada", "Grace"] { await signUp(name) }
        #expect(await terminal.run(arguments: ["--profile", "grace", "chats", "new", "ada@example.com", "--title", "Book club"]) == 0)
        #expect(!terminal.output.contains("not invited"))
        #expect(await terminal.run(arguments: ["--profile", "grace", "chats", "new", "ada@example.com", "--title", "Book club 2"]) == 0)
        #expect(terminal.output.hasSuffix("ada@example.com was not invited again: your invitation waits for their answer.\n"), "\(terminal.output)")
        #expect(await terminal.run(arguments: ["--profile", "grace", "chats", "new", "ada@example.com", "--title", "Book club 3", "--json"]) == 0)
        #expect(terminal.output.contains("\"notInvited\"") && terminal.output.contains("\"alreadyInvited\""), "\(terminal.output)")
    }

    @Test("chats pages: --limit rows numbered from the top, a line naming the next page, --after gives it")
    func pages() async throws {
        await signUp("Ada")
        for index in 1...5 {
            await signUp("P\(index)")
            #expect(await terminal.run("--profile ada chats new p\(index)@example.com") == 0)
        }
        #expect(await terminal.run("--profile ada chats --limit 2") == 0)
        let first = terminal.output.split(separator: "\n")
        #expect(first.count == 3 && first[0].hasPrefix("1. ") && first[1].hasPrefix("2. "))
        let next = try #require(first.dropFirst(2).first?.firstMatch(of: /chats --after ([0-9a-z]+)/)?.output.1)
        #expect(await terminal.run("--profile ada chats --limit 2 --after \(next) --json") == 0)
        let rows = terminal.output.split(separator: "\n")
        #expect(rows.count == 2 && rows.allSatisfy { $0.hasPrefix("{") })
        #expect(await terminal.run("--profile ada chats --limit 0") == 64)
        #expect(await terminal.run("--profile ada chats --after nope") == 66)
    }

    @Test("the REPL tells of waiting invitations; /invites, /accept, /leave, /block and /blocked work there")
    func repl() async throws {
        for name in ["Ada", "Grace"] { await signUp(name) }
        #expect(await terminal.run("--profile grace chats new ada@example.com") == 0)
        let repl = Task { await terminal.run("--profile ada repl") }
        await terminal.waitFor("1 invitation waiting: /invites")
        terminal.type("/invites")
        await terminal.waitFor("1. Grace  ")
        terminal.type("/accept 1")
        await terminal.waitFor("(no messages yet")
        terminal.type("hello grace")
        await terminal.waitFor("You: hello grace")
        terminal.type("/leave grace")
        await terminal.waitFor("Left.")
        terminal.type("/block grace@example.com")
        await terminal.waitFor("Done.")
        terminal.type("/blocked")
        await terminal.waitFor("Grace  ")
        terminal.type("/quit")
        #expect(await repl.value == 0)
        #expect(await terminal.run("--profile grace history ada") == 0 && terminal.output.contains("Ada: hello grace"))
    }
}
