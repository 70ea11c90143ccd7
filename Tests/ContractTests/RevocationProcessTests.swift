import Foundation
import TestSupport
import Testing

/// "A session ended in one terminal stops working in every other within 2 seconds" (README),
/// with real processes: a REPL holds the session; another `messageai` process ends it.
@Suite("Revocation across processes", .timeLimit(.minutes(2)))
struct RevocationProcessTests {
    @Test("a REPL's session ended by another process is refused 2 s later", arguments: [["logout"], ["passwd", "--password-stdin"]])
    func endedElsewhere(_ ending: [String]) async throws {
        let machine = LocalMachine("revoke")
        defer { machine.remove() }
        #expect(
            try await machine.run(["signup", "--email", "ada@example.com", "--name", "Ada", "--password-stdin"], input: "password-ada\n").status == 0)
        // passwd ends every session but its own: the REPL's session is the profile's, so the
        // password is changed from a second profile of the same person.
        let profile = ending == ["logout"] ? [] : ["--profile", "laptop"]
        if !profile.isEmpty {
            #expect(
                try await machine.run(profile + ["login", "--email", "ada@example.com", "--password-stdin"], input: "password-ada\n").status == 0)
        }
        let repl = try machine.start(["repl"])
        defer { kill(repl.process.processIdentifier, SIGKILL) }
        // `/blocked` goes through the process's cached check of its session, as every call does.
        repl.send("/blocked")
        #expect(await repl.line(within: .seconds(20)) { $0 == "Nobody." } != nil, "the REPL is not signed in")

        let ended = try await machine.run(profile + ending, input: "password-ada\npassword-ada-2\n")
        #expect(ended.status == 0, "\(ending): \(ended.errors)")
        let revoked = ContinuousClock.now
        // The documented bound: whatever the REPL asks from 2 s on is refused.
        try await ContinuousClock().sleep(until: revoked + .seconds(2))
        repl.send("/blocked")
        #expect(await repl.line(within: .seconds(10)) { $0.contains("not signed in") } != nil, "still signed in 2 s after \(ending)")
    }
}
