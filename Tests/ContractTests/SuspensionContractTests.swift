import Auth
import Foundation
import Kernel
import ServiceGraph
import TestSupport
import Testing

/// An operator's suspension (`messageai-server admin users suspend|reinstate`) on every store a
/// server keeps accounts in: the account's sessions end on every instance, it signs in no more
/// with a plain answer, reinstated it signs in again, and the audit record says who did both.
@Suite("Suspension contract", .serialized, .timeLimit(.minutes(2)))
struct SuspensionContractTests {
    @Test(
        "suspended: sessions refused within 2 s through another instance, sign-in refused as suspended; reinstated: signs in",
        arguments: [ContractBackend.sqlite, .remote, .postgres, .remoteOnPostgres])
    func suspend(backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let other = try await BackendHarness(backend, sharing: harness)
        defer { other.graph.close() }
        let ada = try await harness.signUp("ada"), grace = try await harness.signUp("grace")
        let direct = try await harness.direct(grace, ada).id
        _ = try await other.accounts.account(for: ada.token)
        let ends = other.graph.sessionEnds()
        let said = try await RegistrationContractTests.admin(["users", "suspend", ada.email.uppercased()], on: harness)
        #expect(said.hasPrefix("\(ada.email)  \(ada.id)  suspended since "), "\(said)")
        if backend == .postgres {
            // Every instance hears of the ended session (and closes its sockets) within about a second.
            let heard = await Task {
                for await _ in ends { return true }
                return false
            }.valueWithin(.seconds(2))
            #expect(heard == true, "the other instance heard of the ended session")
        }
        let refused = ContinuousClock.now
        while (try? await other.accounts.account(for: ada.token)) != nil, ContinuousClock.now - refused < .seconds(3) { await Task.yield() }
        #expect(ContinuousClock.now - refused < .seconds(2.5), "refused within the 2 s an instance trusts a checked token")
        await #expect(throws: AuthRules.suspended) { try await harness.accounts.signIn(email: ada.email, password: "password-ada") }
        await #expect(throws: AuthRules.wrongCredentials) { try await harness.accounts.signIn(email: ada.email, password: "wrong-password") }
        #expect(try await other.accounts.account(for: grace.token).id == grace.id, "nobody else is touched")
        let asGrace = other.graph.services(for: other.graph.caller(token: grace.token))
        #expect(try await asGrace.profiles.profile(matching: ada.id.rawValue).displayName == "ada (suspended)", "others see it")
        // Names are kept a second for mentions and titles (ADR 34).
        var title = ""
        for _ in 0..<40 where title != "ada (suspended)" {
            title = try await asGrace.conversations.conversations().first { $0.id == direct }?.title ?? ""
            if title != "ada (suspended)" { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(title == "ada (suspended)", "where her name stands in Grace's list")
        _ = try await RegistrationContractTests.admin(["users", "reinstate", ada.email], on: harness)
        _ = try await harness.accounts.signIn(email: ada.email, password: "password-ada")
        #expect(try await asGrace.profiles.profile(matching: ada.id.rawValue).displayName == "ada")
        let audit = try await RegistrationContractTests.admin(["audit", "--limit", "2"], on: harness).split(separator: "\n")
        #expect(audit.count == 2 && audit.allSatisfy { $0.contains("  operator:") }, "\(audit)")
        #expect(audit.first?.hasSuffix("  users.reinstate  \(ada.email) (\(ada.id))") == true, "newest first: \(audit)")
        #expect(audit.last?.hasSuffix("  users.suspend  \(ada.email) (\(ada.id))") == true)
    }
}

/// A server over a SQLite file hears of sessions another process ended, as instances on
/// PostgreSQL do: what closes its sockets.
@Suite("Session ends on a SQLite server", .serialized, .timeLimit(.minutes(1)))
struct SQLiteSessionEndTests {
    @Test("an operator's suspension from another process reaches a server on the same file within about a second")
    func suspensionFromAnotherProcess() async throws {
        let harness = try await BackendHarness(.sqlite)
        defer { harness.remove() }
        let ada = try await harness.signUp("ada")
        // The server's graph: the file's sole writer, which reads the notes of ended sessions.
        let server = try ServiceGraph(GraphOptions(backend: .sqlite, sqlitePath: harness.store, bcryptCost: 4, soleWriter: true))
        defer { server.close() }
        _ = try await server.accounts.account(for: ada.token)
        let ends = server.sessionEnds()
        // The watch starts reading from its first look, a second after it opened.
        try await Task.sleep(for: .seconds(1.2))
        let started = ContinuousClock.now
        _ = try await RegistrationContractTests.admin(["users", "suspend", ada.email], on: harness)
        let heard = await Task {
            for await end in ends where end.ends(token: ada.token, of: ada.id) { return true }
            return false
        }.valueWithin(.seconds(3))
        #expect(heard == true, "the server heard of the ended session")
        #expect(ContinuousClock.now - started < .seconds(3))
    }
}

extension Task where Failure == Never {
    /// The task's value if it comes within `limit`, else `nil` (and the task is cancelled).
    func valueWithin(_ limit: Duration) async -> Success? {
        await withTaskGroup(of: Success?.self) { group in
            group.addTask { await self.value }
            group.addTask {
                try? await Task<Never, Never>.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            cancel()
            return first
        }
    }
}
