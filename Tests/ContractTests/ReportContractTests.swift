import Auth
import Chat
import Foundation
import Kernel
import ServiceGraph
import TestSupport
import Testing

/// Reports of messages on every backend: a member reports another's message; an admin sees it
/// as it was when reported and nothing else, and dismisses it or deletes the message for
/// everyone; the report's copy leaves the store once resolved.
@Suite("Report contract", .serialized, .timeLimit(.minutes(2)))
struct ReportContractTests {
    static let word = "quokkaslander"

    @Test(
        "reported as it was; non-members, authors and non-admins refused; resolved by deleting the message, the copy gone",
        arguments: BackendContractTests.backends)
    func report(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let olga = try await harness.signUp("Olga")
        try await Self.makeAdmin(olga, on: harness, backend)
        let room = try await harness.direct(ada, grace).id
        let said = try await harness.services(for: ada).chat.send(id: .random(), text: "you \(Self.word) you", to: room)
        let reports = { (user: BackendHarness.User) in harness.graph.reports(for: harness.graph.caller(token: user.token)) }

        let report = try await reports(grace).report(said.id, in: room, reason: "  name-calling  ")
        #expect(report.text == said.text && report.reason == "name-calling" && report.senderID == ada.id && report.reporterID == grace.id)
        #expect(try await reports(grace).report(said.id, in: room, reason: "again").id == report.id, "reported once")
        await #expect(throws: AppError.self) { try await reports(eve).report(said.id, in: room, reason: "nosy") }
        await #expect(throws: AppError(.conflict, "you cannot report your own message: delete it")) {
            try await reports(ada).report(said.id, in: room, reason: "mine")
        }
        await #expect(throws: AppError.self) { try await reports(grace).report(said.id, in: room, reason: " ") }
        _ = try await harness.services(for: ada).chat.edit(said.id, in: room, text: "sorry")

        let asGrace = harness.graph.admin(for: harness.graph.caller(token: grace.token))
        await #expect(throws: AdminRules.notAdmin) { try await asGrace.reports(includingResolved: true, limit: 10) }
        let asOlga = harness.graph.admin(for: harness.graph.caller(token: olga.token))
        let listed = try await asOlga.reports(includingResolved: false, limit: 10)
        #expect(listed.map(\.id) == [report.id] && listed.first?.text == "you \(Self.word) you", "as it was when reported")
        let resolved = try await asOlga.resolveReport(id: report.id, deletingMessage: true)
        #expect(resolved.resolution == ReportRules.messageDeleted && resolved.text == "", "the copy is forgotten")
        #expect(try await harness.services(for: grace).chat.latestMessages(in: room, limit: 5).messages.first?.deleted == true)
        #expect(try await asOlga.reports(includingResolved: false, limit: 10).isEmpty)
        #expect(try await asOlga.resolveReport(id: report.id, deletingMessage: false).resolution == ReportRules.messageDeleted, "once")
        let entry = try #require(try await asOlga.auditEntries(limit: 1).first)
        #expect(entry.action == "reports.delete-message" && !entry.subject.contains(Self.word))
        await #expect(throws: ReportRules.noReport("nothing")) { try await asOlga.resolveReport(id: "nothing", deletingMessage: true) }
        // The report names people by id: an admin acts on them by it.
        #expect(try await asOlga.setSuspended(email: report.senderID.rawValue, true).email == ada.email)
        await #expect(throws: AdminRules.noAccount) { try await asOlga.account(email: "nobody-by-this-id") }
        if backend == .sqlite || backend == .remote {
            #expect(try await DeletedTextTests.copies(of: [Self.word], in: harness) == [0], "no byte of the store keeps the reported text")
        }
    }

    /// Makes `user` an admin: on the store as the operator does (through the server's command on
    /// the remote backends).
    static func makeAdmin(_ user: BackendHarness.User, on harness: BackendHarness, _ backend: ContractBackend) async throws {
        if backend.graphBackend == .remote {
            _ = try await RegistrationContractTests.admin(["grant", user.email], on: harness)
        } else {
            _ = try await harness.graph.operatorAdmin(named: "operator:test").setAdmin(email: user.email, true)
        }
    }
}
