import Chat
import Foundation
import Kernel
import ServiceGraph
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server's `retention.days` on every store it erases in: a pass deletes for everyone what was
/// sent before the cut, whoever sent it, and nothing after; texts and index words leave the store.
@Suite("Retention contract", .serialized, .timeLimit(.minutes(2)))
struct RetentionContractTests {
    static let old = "archaeopteryxfeather"

    @Test(
        "a pass deletes what is older than the days kept, for everyone, and keeps the rest", arguments: [ContractBackend.memory, .sqlite, .postgres])
    func pass(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let room = try await harness.direct(ada, grace).id
        let (asAda, asGrace) = (harness.services(for: ada), harness.services(for: grace))
        let first = try await asAda.chat.send(id: .random(), text: "the \(Self.old) of long ago", to: room)
        let second = try await asGrace.chat.send(id: .random(), text: "an old answer", to: room)
        #expect(try await asGrace.search.search(Self.old, in: nil, limit: 5, before: nil).hits.count == 1)
        #expect(ErasedMessages.pastRetention(days: 0, at: harness.clock.now()) == nil, "0 keeps them for ever")
        harness.clock.advance(by: 3 * 86_400)
        let recent = try await asAda.chat.send(id: .random(), text: "this week's news", to: room)

        let cut = try #require(ErasedMessages.pastRetention(days: 2, at: harness.clock.now()))
        let erased = try await harness.graph.erase(cut)
        #expect(backend == .memory ? erased >= 2 : erased == 2, "\(erased): memory's seeded messages are old too")
        #expect(try await harness.graph.erase(cut) == 0, "a second pass finds nothing left")
        let seen = try await asGrace.chat.latestMessages(in: room, limit: 10).messages
        #expect(seen.map(\.id) == [first.id, second.id, recent.id])
        #expect(seen.map(\.deleted) == [true, true, false] && seen.map(\.text) == ["", "", "this week's news"])
        #expect(try await asGrace.search.search(Self.old, in: nil, limit: 5, before: nil).hits.isEmpty)
        if backend == .sqlite {
            #expect(try await DeletedTextTests.copies(of: [Self.old], in: harness) == [0], "no byte of the store keeps the text")
        }
    }

    @Test("a server that keeps messages 30 days runs its passes beside serving, and stops cleanly on SIGTERM")
    func serverRunsPasses() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-retention-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await ServerProcess(databasePath: folder.appendingPathComponent("s.sqlite").path, arguments: ["--retention-days", "30"])
        let (_, response) = try await URLSession.shared.data(from: try #require(URL(string: server.url + "/v1/health")))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let stopped = await server.terminate()
        #expect(stopped.status == 0, "a pass ends with the server, which exits 0")
    }
}
