import Foundation
import Kernel
import TestSupport
import Testing

/// A message typed in the REPL while the server is away is kept and sent once it is back, with
/// its own id, in the order typed, also by the next REPL of the same user (and by no other user
/// of the profile); a message the server then refuses shows why; the CLI fails instead (69).
@Suite("Outbox", .timeLimit(.minutes(2)))
struct OutboxTests {
    @Test("the server died after storing a send and before answering it: queued, sent again by the next REPL, stored once, in order")
    func storedButUnanswered() async throws {
        let world = try await ServerWorld(environment: [FaultPoint.variable: FaultPoint.sendsStoredUnanswered.rawValue])
        defer { world.remove() }
        let (ada, grace) = try await Self.adaAndGrace(on: world)
        _ = try await world.machine("bob").signUp("Bob")

        let repl = try ada.start(["repl"])
        defer { repl.terminate() }
        repl.type("/open Grace")
        #expect(await repl.waitFor("type to send") != nil)
        // The first send is stored, then the server stops dead before it answers: the REPL shows
        // it queued, or sent if the stored message's own event reached it first.
        repl.type("first")
        let first = await repl.waitFor("first")
        #expect(
            first?.contains("(queued: sent when the server is back)") == true || first?.contains("You: first") == true,
            "\(first ?? "nothing")")
        for text in ["second", "third"] {
            repl.type(text)
            let queued = await repl.waitFor(text)
            #expect(queued?.contains("(queued") == true, "\(queued ?? "nothing")")
        }
        repl.type("/quit")
        #expect(await repl.waitFor("wait in the outbox") != nil)
        await repl.stop()

        // Beside it, the lock file two REPLs of the profile take turns with.
        let outbox = try #require(
            try FileManager.default.contentsOfDirectory(atPath: ada.state.appendingPathComponent("outbox").path)
                .first { !$0.hasPrefix(".") })
        let file = ada.state.appendingPathComponent("outbox").appendingPathComponent(outbox).path
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
        try await world.server.restart()
        #expect(try await grace.run(["history", "Ada"]).stdout.contains("first"), "the first send was stored before the server died")

        // Bob signs in on Ada's profile: his REPL neither shows nor sends her queue.
        #expect(try await ada.run(["login", "--email", "bob@example.com", "--password-stdin"], input: "password-Bob\n").status == 0)
        let asBob = try await ada.run(["repl"], input: "/quit\n")
        #expect(asBob.status == 0 && !asBob.stdout.contains("second") && !asBob.stderr.contains("outbox"), "\(asBob.stdout)\(asBob.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("second"), "Bob's REPL left Ada's queue alone")
        #expect(try await grace.run(["history", "Ada"]).stdout.contains("second") == false)

        // Ada again: her next REPL sends the queue as it starts, and waits up to 2 s on /quit.
        #expect(try await ada.run(["login", "--email", "ada@example.com", "--password-stdin"], input: "password-Ada\n").status == 0)
        let again = try await ada.run(["repl"], input: "/quit\n")
        #expect(again.status == 0 && !again.stderr.contains("outbox"), "\(again.stdout)\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file), "the outbox is emptied once sent")
        let history = try await grace.run(["history", "Ada", "--json"]).stdout
        let texts = history.matches(of: /"text":"([a-z]+)"/).map { String($0.output.1) }
        #expect(texts == ["first", "second", "third"], "each stored once, in the order typed: \(history)")
    }

    @Test("a kept message the server refuses once it is back is reported with the server's reason, whatever screen is open")
    func refusedWhenBack() async throws {
        let world = try await ServerWorld()
        defer { world.remove() }
        let (ada, grace) = try await Self.adaAndGrace(on: world)
        let repl = try ada.start(["repl"])
        defer { repl.terminate() }
        repl.type("/open Grace")
        #expect(await repl.waitFor("type to send") != nil)
        await world.server.kill9()
        repl.type("too late")
        #expect(await repl.waitFor("(queued") != nil)
        repl.type("/quit")
        #expect(await repl.waitFor("wait in the outbox") != nil)
        await repl.stop()

        // Back, but Ada has left the conversation meanwhile (from another terminal).
        try await world.server.restart()
        #expect(try await ada.run(["leave", "Grace"]).status == 0)
        let again = try await ada.run(["repl"], input: "/quit\n")
        #expect(
            (again.stdout + again.stderr).contains("error: 'too late' was not sent: you are not a member of conversation"),
            "\(again.stdout)\(again.stderr)")
        #expect(try await grace.run(["history", "Ada"]).stdout.contains("too late") == false)
    }

    @Test("the CLI's send while the server is away fails with 69 and keeps nothing")
    func cliSendWhileAway() async throws {
        let world = try await ServerWorld()
        defer { world.remove() }
        let (ada, _) = try await Self.adaAndGrace(on: world)
        await world.server.kill9()
        let sent = try await ada.run(["send", "Grace", "while away"])
        #expect(sent.status == 69 && sent.stderr.contains("cannot reach the server"), "\(sent.status): \(sent.stderr)")
        let outbox = ada.state.appendingPathComponent("outbox").path
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: outbox).filter { !$0.hasPrefix(".") }) ?? []
        #expect(kept.isEmpty, "the CLI keeps no outbox: \(kept)")
    }

    /// Ada (who gives up on the server after 2 s) and Grace on machines of their own, in a
    /// one-to-one both are in.
    private static func adaAndGrace(on world: ServerWorld) async throws -> (ada: Machine, grace: Machine) {
        var ada = world.machine("ada")
        let grace = world.machine("grace")
        ada.environment["MESSAGEAI_REMOTE_TIMEOUT_SECONDS"] = "2"
        _ = try await ada.signUp("Ada")
        _ = try await grace.signUp("Grace")
        try await ada.startChat(as: "Ada", with: grace, "Grace")
        return (ada, grace)
    }
}
