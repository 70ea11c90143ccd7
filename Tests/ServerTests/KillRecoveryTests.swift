import Chat
import ConversationList
import Foundation
import Kernel
import ServiceGraph
import Testing
import TestSupport

/// A server killed with SIGKILL in the middle of traffic loses nothing it acknowledged, and its
/// clients, retrying sends with the same ids and resuming their sockets after their cursors,
/// end with every message exactly once, in order.
@Suite("Kill recovery", .timeLimit(.minutes(3)))
struct KillRecoveryTests {
    @Test("senders and live readers through two kill -9s and restarts: none lost, none repeated, order kept")
    func twoKills() async throws {
        let world = try await ServerWorld()
        defer { world.remove() }
        let graph = try world.remoteGraph()
        var pairs: [(sender: ServiceSet, receiver: ServiceSet, conversation: ConversationID)] = []
        for index in 0..<4 {
            let sender = try await graph.accounts.signUp(email: "s\(index)@example.com", displayName: "S\(index)", password: "password-s")
            let receiver = try await graph.accounts.signUp(email: "r\(index)@example.com", displayName: "R\(index)", password: "password-r")
            let asSender = graph.services(for: graph.caller(token: sender.token))
            let conversation = try await asSender.conversations.startDirect(with: receiver.account.id)
            let asReceiver = graph.services(for: graph.caller(token: receiver.token))
            _ = try await asReceiver.conversations.accept(conversation.id)
            pairs.append((asSender, asReceiver, conversation.id))
        }
        let ledger = DeliveryLedger()
        var readers: [Task<Void, Never>] = []
        for pair in pairs {
            let events = try await pair.receiver.chat.liveEvents()
            readers.append(Task { for await case .message(let message) in events { ledger.received(message.id, in: message.conversationID) } })
        }
        defer { readers.forEach { $0.cancel() } }

        let perPair = 250, total = perPair * pairs.count
        let drill = KillDrill(server: world.server, killingAt: [total / 3, total * 2 / 3])
        let attempts = try await withThrowingTaskGroup(of: Int.self) { group in
            for pair in pairs {
                group.addTask {
                    try await drill.send(perPair, in: pair.conversation, noting: ledger) { id, index in
                        _ = try await pair.sender.chat.send(id: id, text: "m\(index)", to: pair.conversation)
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(try await drill.finish() == 2)
        #expect(attempts > total, "some sends met a dead server and were sent again")
        await ledger.waitForArrivals(total, timeout: .seconds(60))
        #expect(ledger.verdict == DeliveryLedger.Verdict(sent: total, delivered: total, lost: 0, duplicated: 0, reordered: 0), "\(ledger.verdict)")
        for pair in pairs {
            let stored = try await pair.receiver.chat.latestMessages(in: pair.conversation, limit: 500).messages
            #expect(stored.map(\.text) == (0..<perPair).map { "m\($0)" })
        }
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
