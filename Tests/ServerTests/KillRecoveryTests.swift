import Chat
import ConversationList
import Foundation
import Kernel
import ServiceGraph
import TestSupport
import Testing

/// A server killed with SIGKILL in the middle of traffic loses nothing it acknowledged, and its
/// clients, retrying sends with the same ids and resuming their sockets after their cursors,
/// end with every message exactly once, in order.
@Suite("Kill recovery", .timeLimit(.minutes(3)))
struct KillRecoveryTests {
    @Test("senders and live readers through two kill -9s and restarts: none lost, none repeated, order kept")
    func twoKills() async throws {
        let world = try await ServerWorld()
        defer { world.remove() }
        let traffic = try await DrillTraffic(graph: try world.remoteGraph(), pairs: 4)
        defer { traffic.stop() }
        let perPair = 250, total = perPair * traffic.pairs.count
        let drill = KillDrill(server: world.server, killingAt: [total / 3, total * 2 / 3])
        let attempts = try await traffic.send(perPair, through: drill)
        #expect(try await drill.finish() == 2)
        #expect(attempts > total, "some sends met a dead server and were sent again")
        await traffic.ledger.waitForArrivals(total, timeout: .seconds(60))
        let verdict = traffic.ledger.verdict
        #expect(verdict == DeliveryLedger.Verdict(sent: total, delivered: total, lost: 0, duplicated: 0, reordered: 0), "\(verdict)")
        for texts in try await traffic.stored() { #expect(texts == (0..<perPair).map { "m\($0)" }) }
    }

    @Test("a live reader whose socket dies between edits resumes after its cursor: each change once, in order, ending on the final text")
    func editsAcrossAKill() async throws {
        let world = try await ServerWorld()
        defer { world.remove() }
        let graph = try world.remoteGraph()
        let ada = try await graph.accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "password-ada")
        let grace = try await graph.accounts.signUp(email: "grace@example.com", displayName: "Grace", password: "password-grace")
        let asAda = graph.services(for: graph.caller(token: ada.token)), asGrace = graph.services(for: graph.caller(token: grace.token))
        let direct = try await asAda.conversations.startDirect(with: grace.account.id).id
        _ = try await asGrace.conversations.accept(direct)
        let sent = try await asAda.chat.send(id: .random(), text: "v0", to: direct)
        var live = try await asGrace.events.liveEvents().makeAsyncIterator()
        _ = try await asAda.chat.edit(sent.id, in: direct, text: "v1")
        var changes: [UserEvent] = []
        while let event = await live.next() {
            if case .messageChanged = event { changes.append(event) }
            if event.messageNow?.text == "v1" { break }
        }
        await world.server.kill9()
        try await world.server.restart()
        for version in 2...4 { _ = try await asAda.chat.edit(sent.id, in: direct, text: "v\(version)") }
        while let event = await live.next() {
            if case .messageChanged = event { changes.append(event) }
            if changes.count == 4 { break }
        }
        let positions = changes.compactMap { $0.cursor?.position }
        #expect(positions.count == 4 && zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 }, "each change once, in order: \(positions)")
        #expect(changes.last?.messageNow?.text == "v4" && changes.last?.messageNow?.version == 4)
        #expect(try await asGrace.chat.latestMessages(in: direct, limit: 5).messages.map(\.text) == ["v4"])
    }

    @Test("sends acknowledged after another program opened and closed the server's file survive kill -9", arguments: ForeignProgram.all)
    func afterForeignProgram(_ program: ForeignProgram) async throws {
        let world = try await ServerWorld()
        defer { world.remove() }
        let graph = try world.remoteGraph()
        let ada = try await graph.accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "password-ada")
        let bob = try await graph.accounts.signUp(email: "bob@example.com", displayName: "Bob", password: "password-bob")
        let chat = graph.services(for: graph.caller(token: ada.token))
        let conversation = try await chat.conversations.startDirect(with: bob.account.id).id
        _ = try await graph.services(for: graph.caller(token: bob.token)).conversations.accept(conversation)
        _ = try await chat.chat.send(id: .random(), text: "before", to: conversation)

        let foreign = try await program.run(on: world.server.databasePath, in: world.folder)
        #expect(foreign.status == 0, "\(program): \(foreign.errors)")
        let texts = (1...20).map { "after \($0)" }
        for text in texts { _ = try await chat.chat.send(id: .random(), text: text, to: conversation) }
        await world.server.kill9()
        try await world.server.restart()

        let stored = try await graph.services(for: graph.caller(token: bob.token)).chat.latestMessages(in: conversation, limit: 50).messages
        #expect(stored.map(\.text) == ["before"] + texts, "acknowledged, then lost to kill -9 after \(program) closed the file")
    }
}
