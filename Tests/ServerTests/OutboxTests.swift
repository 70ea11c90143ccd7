import Foundation
import Testing
import TestSupport

/// A message typed in the REPL while the server is away is kept and sent once it is back, with
/// its own id, also by the next REPL; a message the server then refuses fails with the reason.
@Suite("Outbox", .timeLimit(.minutes(2)))
struct OutboxTests {
    @Test("typed while the server is down: queued in an owner-only file, sent by the next REPL, stored once")
    func queuedAcrossRestarts() async throws {
        let world = try await ServerWorld()
        defer { world.remove() }
        var ada = world.machine("ada"), grace = world.machine("grace")
        ada.environment["MESSAGEAI_REMOTE_TIMEOUT_SECONDS"] = "2"
        _ = try await ada.signUp("Ada")
        _ = try await grace.signUp("Grace")
        #expect(try await ada.run(["chats", "new", "grace@example.com"]).status == 0)
        #expect(try await grace.run(["invites", "accept", "Ada"]).status == 0)

        let repl = try ada.start(["repl"])
        defer { repl.terminate() }
        repl.type("/open Grace")
        #expect(await repl.waitFor("type to send") != nil)
        await world.server.kill9()
        repl.type("hello while away")
        let queued = await repl.waitFor("hello while away")
        #expect(queued?.contains("(queued: sent when the server is back)") == true, "\(queued ?? "nothing")")
        repl.type("/quit")
        #expect(await repl.waitFor("wait in the outbox") != nil)
        await repl.stop()

        // Beside it, the lock file two REPLs of the profile take turns with.
        let outbox = try #require(try FileManager.default.contentsOfDirectory(atPath: ada.state.appendingPathComponent("outbox").path)
            .first { !$0.hasPrefix(".") })
        let file = ada.state.appendingPathComponent("outbox").appendingPathComponent(outbox).path
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("hello while away"))

        try await world.server.restart()
        // The next REPL sends it as it starts, and waits up to 2 s on /quit for it to go.
        let again = try await ada.run(["repl"], input: "/quit\n")
        #expect(again.status == 0 && !again.stderr.contains("outbox"), "\(again.stdout)\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file), "the outbox is emptied once sent")
        let history = try await grace.run(["history", "Ada"])
        #expect(history.stdout.components(separatedBy: "hello while away").count == 2, "stored once: \(history.stdout)")
    }
}
