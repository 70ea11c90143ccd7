import Foundation
import TestSupport
import Testing

/// The SQLite backend while another program opens the database file, as an operator would:
/// long-lived `messageai` processes (a `tail`, a REPL) hold it; a foreign program reads it or
/// backs it up and closes it. A live reader must still get new messages, and what a REPL was
/// told is stored must survive its `kill -9`.
@Suite("SQLite: other programs opening the file while messageai runs", .timeLimit(.minutes(2)))
struct ForeignProgramProcessTests {
    let machine = LocalMachine("foreign-live")

    @Test("a tail still receives, and a REPL's stored messages survive its kill -9", arguments: ForeignProgram.all)
    func liveAndDurable(_ program: ForeignProgram) async throws {
        defer { machine.remove() }
        for name in ["alice", "bob"] {
            try await run(
                ["--profile", name, "signup", "--email", "\(name)@example.com", "--name", name.capitalized, "--password-stdin"],
                input: "password123\n")
        }
        let chat = try await run(["--profile", "alice", "chats", "new", "bob@example.com", "--json"])
        try await run(["--profile", "bob", "chats", "new", "alice@example.com"])  // accepts Alice's invitation
        let conversation = try #require(chat.firstMatch(of: /"id":"([^"]+)"/)?.output.1).description

        // From a cursor, so that the tail misses nothing sent while it starts.
        let first = try await run(["--profile", "alice", "send", conversation, "hello", "--json"])
        let cursor = try #require(first.firstMatch(of: /"cursor":"([^"]+)"/)?.output.1).description
        let tail = try machine.start(["--profile", "bob", "tail", conversation, "--since", cursor, "--json"])
        let repl = try machine.start(["--profile", "alice", "repl"])
        defer { for child in [tail, repl] { kill(child.process.processIdentifier, SIGKILL) } }
        repl.send("/chat \(conversation)")
        repl.send("from the repl, before")
        #expect(await repl.line(within: .seconds(20)) { $0.contains("You: from the repl, before") } != nil, "the REPL stored nothing")
        #expect(await tail.line(within: .seconds(20)) { $0.contains("from the repl, before") } != nil, "the tail was not live")

        let foreign = try await program.run(on: machine.databasePath, in: machine.folder)
        #expect(foreign.status == 0, "\(program): \(foreign.errors)")

        try await run(["--profile", "alice", "send", conversation, "from the cli, after"])
        #expect(
            await tail.line(within: .seconds(10)) { $0.contains("from the cli, after") } != nil,
            "the tail missed a message sent after \(program) closed the file")
        let typed = (1...10).map { "from the repl, after \($0)" }
        typed.forEach(repl.send)
        #expect(await repl.line(within: .seconds(20)) { $0.contains("You: \(typed[9])") } != nil, "the REPL did not store its sends")
        await repl.kill9()
        let history = try await run(["--profile", "bob", "history", conversation, "--json"])
        let lost = typed.filter { !history.contains("\"\($0)\"") }
        #expect(lost.isEmpty, "acknowledged and lost after kill -9: \(lost)")
    }

    /// Runs `messageai` to its end; its standard output.
    @discardableResult
    private func run(_ arguments: [String], input: String = "") async throws -> String {
        let finished = try await machine.run(arguments, input: input)
        try #require(finished.status == 0, "messageai \(arguments.joined(separator: " ")) exited \(finished.status): \(finished.errors)")
        return finished.output
    }
}
