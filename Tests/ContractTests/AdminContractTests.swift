import Auth
import AuthAPI
import Foundation
import Kernel
import ServiceGraph
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Admins on every store a server keeps accounts in, directly and through a real
/// `messageai-server`: the operator makes the first on the store, who then acts through the
/// graph (the admin API, remote); nobody else may, on any route; there is always an admin.
@Suite("Admin contract", .serialized, .timeLimit(.minutes(2)))
struct AdminContractTests {
    @Test(
        "the operator makes the first admin; a non-admin is refused everything alike; an admin suspends through another instance",
        arguments: [ContractBackend.sqlite, .remote, .postgres, .remoteOnPostgres])
    func admins(backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let other = try await BackendHarness(backend, sharing: harness)
        defer { other.graph.close() }
        let ada = try await harness.signUp("ada"), bob = try await harness.signUp("bob")
        let asBob = harness.graph.admin(for: harness.graph.caller(token: bob.token))
        await #expect(throws: AdminRules.notAdmin) { try await asBob.accounts(after: nil, limit: 10) }
        await #expect(throws: AdminRules.notAdmin) { try await asBob.setSuspended(email: ada.email, true) }
        await #expect(throws: AdminRules.notAdmin) { try await asBob.auditEntries(limit: 10) }
        let granted = try await RegistrationContractTests.admin(["grant", ada.email], on: harness)
        #expect(granted.hasPrefix("\(ada.email)  \(ada.id)  admin  joined "), "\(granted)")
        let asAda = other.graph.admin(for: other.graph.caller(token: ada.token))
        #expect(try await asAda.accounts(after: nil, limit: 1_000).map(\.email).contains(bob.email))
        #expect(try await asAda.account(email: bob.email.uppercased()).id == bob.id)
        let ends = other.graph.sessionEnds()
        let suspended = try await asAda.setSuspended(email: bob.email, true)
        #expect(suspended.suspendedAt != nil)
        if backend.graphBackend != .remote {
            // What a server's events sockets let go on: Bob's, at once, on the instance that suspended him.
            let heard = await Task {
                for await end in ends where end.ends(token: bob.token, of: bob.id) { return true }
                return false
            }.valueWithin(.seconds(1))
            #expect(heard == true, "the instance that suspended Bob let go of his sessions at once")
        }
        let refused = ContinuousClock.now
        while (try? await harness.accounts.account(for: bob.token)) != nil, ContinuousClock.now - refused < .seconds(3) { await Task.yield() }
        #expect(ContinuousClock.now - refused < .seconds(2.5), "refused within the 2 s an instance trusts a checked token")
        let entries = try await asAda.auditEntries(limit: 2)
        #expect(entries.map(\.action) == ["users.suspend", "admins.grant"])
        #expect(entries.first?.actor == "admin:\(ada.email)" && entries.last?.actor.hasPrefix("operator:") == true)
        let listed = try await RegistrationContractTests.admin(["audit", "--limit", "1"], on: harness)
        #expect(listed.hasSuffix("  admin:\(ada.email)  users.suspend  \(bob.email) (\(bob.id))"), "\(listed)")
    }

    @Test("two admins revoking themselves at once through two instances leave one admin", arguments: [ContractBackend.sqlite, .postgres])
    func lastAdmin(backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let other = try await BackendHarness(backend, sharing: harness)
        defer { other.graph.close() }
        let ada = try await harness.signUp("ada"), bob = try await harness.signUp("bob")
        let first = try harness.graph.operatorAdmin(named: "operator:test")
        _ = try await first.setAdmin(email: ada.email, true)
        _ = try await first.setAdmin(email: bob.email, true)
        for _ in 0..<5 {
            let revokes = [(harness, ada), (other, bob)].map { instance, person in
                Task {
                    (try? await instance.graph.admin(for: instance.graph.caller(token: person.token)).setAdmin(email: person.email, false)) != nil
                }
            }
            var revoked = 0
            for revoke in revokes where await revoke.value { revoked += 1 }
            #expect(revoked == 1)
            let admins = try await first.accounts(after: nil, limit: 10).filter { $0.adminSince != nil }
            #expect(admins.count == 1)
            _ = try await first.setAdmin(email: admins.first?.email == ada.email ? bob.email : ada.email, true)
        }
        _ = try await first.setAdmin(email: ada.email, false)
        await #expect(throws: AdminRules.lastAdmin, "not even the operator removes the last") { try await first.setAdmin(email: bob.email, false) }
    }

    @Test("every admin route answers a non-admin 403, whatever it asks", arguments: [ContractBackend.remote, .remoteOnPostgres])
    func forbidden(backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let bob = try await harness.signUp("bob")
        let server = try #require(harness.server?.url)
        // Every route under /v1/admin/ (reporting a message is any member's), each with a body it accepts.
        let bodies = [
            AdminAPI.createInvite.spec.path: #"{"uses":1,"lifetime":3600}"#, AdminAPI.revokeInvite.spec.path: #"{"id":"abc"}"#,
            AdminAPI.resolveReport.spec.path: #"{"id":"abc","deleteMessage":true}"#,
        ]
        for spec in AdminAPI.endpoints where spec.path.hasPrefix("/v1/admin/") {
            var request = URLRequest(
                url: try #require(URL(string: server + spec.path + (spec.path == AdminAPI.account.spec.path ? "?email=a@b.c" : ""))))
            request.httpMethod = spec.method.rawValue
            request.setValue("Bearer \(bob.token)", forHTTPHeaderField: "Authorization")
            if spec.body != nil {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data((bodies[spec.path] ?? #"{"email":"nobody@example.com"}"#).utf8)
            }
            let (body, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 403, "\(spec.method) \(spec.path): \(String(decoding: body, as: UTF8.self))")
            #expect(String(decoding: body, as: UTF8.self).contains(AdminRules.notAdmin.message))
        }
    }

    @Test(
        "where everyone may invite, a member makes small codes that admit sign-ups; where admins alone may, a member is refused",
        arguments: [ContractBackend.sqlite, .remote, .postgres])
    func membersInvite(backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend, registration: .invite, invitesByEveryone: true)
        defer { harness.remove() }
        let grace = try await harness.signUp("grace", invite: try await RegistrationContractTests.code(uses: 1, on: harness))
        let asGrace = harness.graph.admin(for: harness.graph.caller(token: grace.token))
        await #expect(throws: AdminRules.memberInviteTooBig) { try await asGrace.createInvite(uses: 6, lifetime: 3_600) }
        await #expect(throws: AdminRules.notAdmin, "listing codes stays an admin's") { try await asGrace.invites() }
        let (code, invite) = try await asGrace.createInvite(uses: 2, lifetime: 3_600)
        #expect(invite.uses == 2)
        _ = try await harness.accounts.signUp(email: "friend@example.com", displayName: "Friend", password: "password-friend", invite: code)
        let audit = try await RegistrationContractTests.admin(["audit", "--limit", "1"], on: harness)
        #expect(audit.hasSuffix("  member:\(grace.email)  invites.create  code \(invite.id) (2 uses)"), "\(audit)")

        let closed = try await BackendHarness(backend, registration: .invite)
        defer { closed.remove() }
        let ada = try await closed.signUp("ada", invite: try await RegistrationContractTests.code(uses: 1, on: closed))
        await #expect(throws: AdminRules.notAdmin) {
            try await closed.graph.admin(for: closed.graph.caller(token: ada.token)).createInvite(uses: 1, lifetime: 3_600)
        }
    }
}
