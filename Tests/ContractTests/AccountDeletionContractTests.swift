import Auth
import Chat
import Files
import Foundation
import Kernel
import Profile
import ServiceGraph
import TestSupport
import Testing

/// Deleting an account on every backend: its messages become tombstones for everyone (their
/// text and files gone from the store and its index, checked in the SQLite file's bytes), its
/// profile "Deleted user", its sessions end and its email signs up again; a wrong password
/// changes nothing; a server's last admin stays.
@Suite("Account deletion contract", .serialized, .timeLimit(.minutes(2)))
struct AccountDeletionContractTests {
    static let secret = "pterodactylwingspan"

    @Test(
        "delete-account: tombstones for everyone, text, file and index gone, Deleted user, sessions ended, email free",
        arguments: BackendContractTests.backends)
    func deleteAccount(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let room = try await harness.direct(ada, grace).id
        let (asAda, asGrace) = (harness.services(for: ada), harness.services(for: grace))
        let content = Array("the \(Self.secret) logbook".utf8)
        let file = try await asAda.files.upload(
            FileUpload(conversationID: room, messageID: MessageID("m-file"), name: "log.txt", declaredSize: Int64(content.count)),
            bytes: FilesContractTests.chunks(content))
        let said = try await asAda.chat.send(id: MessageID("m-file"), text: "my \(Self.secret) notes", to: room, replyTo: nil, attachments: [file.id])
        let answer = try await asGrace.chat.send(id: .random(), text: "noted", to: room)
        #expect(try await asGrace.search.search(Self.secret, in: nil, limit: 5, before: nil).hits.map(\.id) == [said.id], "the index holds it")

        await #expect(throws: AuthRules.wrongPassword) { try await harness.accounts.deleteAccount(token: ada.token, password: "not-hers-at-all") }
        #expect(try await asGrace.chat.latestMessages(in: room, limit: 10).messages.map(\.text) == [said.text, "noted"], "nothing changed")

        try await harness.accounts.deleteAccount(token: ada.token, password: "password-Ada")
        let seen = try await asGrace.chat.latestMessages(in: room, limit: 10).messages
        #expect(seen.map(\.id) == [said.id, answer.id])
        #expect(seen.first?.deleted == true && seen.first?.text == "" && seen.first?.attachments == [], "a tombstone, for everyone")
        #expect(seen.last?.text == "noted", "Grace's own message stays")
        #expect(try await asGrace.search.search(Self.secret, in: nil, limit: 5, before: nil).hits.isEmpty)
        await #expect(throws: AppError.self) { try await asGrace.files.download(file.id, range: nil) }
        #expect(try await asGrace.profiles.profile(matching: ada.id.rawValue).displayName == "Deleted user")
        await #expect(throws: AppError.notSignedIn) { try await harness.accounts.account(for: ada.token) }
        await #expect(throws: AuthRules.wrongCredentials) { try await harness.accounts.signIn(email: ada.email, password: "password-Ada") }
        let again = try await harness.accounts.signUp(email: ada.email, displayName: "Ada again", password: "password-new")
        #expect(again.account.id != ada.id, "the email signs up again, as someone new")
        if backend == .sqlite || backend == .remote {
            #expect(try await DeletedTextTests.copies(of: [Self.secret], in: harness) == [0], "no byte of the store keeps the text or the file")
        }
    }

    @Test("the server's last admin cannot delete the account; with another admin it can", arguments: [ContractBackend.sqlite, .postgres])
    func lastAdmin(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let store = try harness.graph.operatorAdmin(named: "operator:test")
        _ = try await store.setAdmin(email: ada.email, true)
        await #expect(throws: AdminRules.lastAdmin) { try await harness.accounts.deleteAccount(token: ada.token, password: "password-Ada") }
        #expect(try await harness.accounts.account(for: ada.token).id == ada.id, "nothing was removed")
        _ = try await store.setAdmin(email: grace.email, true)
        let asGrace = harness.graph.admin(for: harness.graph.caller(token: grace.token))
        try await asGrace.deactivate(email: ada.email)
        await #expect(throws: AppError.notSignedIn) { try await harness.accounts.account(for: ada.token) }
        #expect(try await asGrace.auditEntries(limit: 1).first?.action == "users.deactivate")
        await #expect(throws: AdminRules.noAccount) { try await asGrace.account(email: ada.email) }
    }
}
