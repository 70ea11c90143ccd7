import Chat
import ConversationList
import Kernel
import ServiceGraph
import TestSupport

/// Traffic for a kill drill: senders and live readers in one-to-ones, clients of one server or
/// of the proxy in front of several; each reader notes what arrives in `ledger`.
struct DrillTraffic {
    struct Pair: Sendable {
        let sender: ServiceSet
        let receiver: ServiceSet
        let conversation: ConversationID
    }

    let pairs: [Pair]
    let ledger = DeliveryLedger()
    private let readers: [Task<Void, Never>]

    /// `count` pairs signed up through `graph`, each receiver accepting its one-to-one and reading it live.
    init(graph: ServiceGraph, pairs count: Int) async throws {
        var pairs: [Pair] = []
        for index in 0..<count {
            let sender = try await graph.accounts.signUp(email: "s\(index)@example.com", displayName: "S\(index)", password: "password-s")
            let receiver = try await graph.accounts.signUp(email: "r\(index)@example.com", displayName: "R\(index)", password: "password-r")
            let asSender = graph.services(for: graph.caller(token: sender.token))
            let conversation = try await asSender.conversations.startDirect(with: receiver.account.id)
            let asReceiver = graph.services(for: graph.caller(token: receiver.token))
            _ = try await asReceiver.conversations.accept(conversation.id)
            pairs.append(Pair(sender: asSender, receiver: asReceiver, conversation: conversation.id))
        }
        var readers: [Task<Void, Never>] = []
        let ledger = ledger
        for pair in pairs {
            let events = try await pair.receiver.events.liveEvents()
            readers.append(Task { for await case .message(let message) in events { ledger.received(message.id, in: message.conversationID) } })
        }
        self.pairs = pairs
        self.readers = readers
    }

    /// Each sender sends `perPair` messages (`m0`, `m1`…) one after another through `drill`,
    /// all senders at once; the number of attempts.
    func send(_ perPair: Int, through drill: KillDrill) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for pair in pairs {
                group.addTask {
                    try await drill.send(perPair, in: pair.conversation, noting: ledger) { id, index in
                        _ = try await pair.sender.chat.send(id: id, text: "m\(index)", to: pair.conversation)
                    }
                }
            }
            return try await group.reduce(0, +)
        }
    }

    /// Each conversation's stored texts, oldest first (at most 500).
    func stored() async throws -> [[String]] {
        var texts: [[String]] = []
        for pair in pairs { texts.append(try await pair.receiver.chat.latestMessages(in: pair.conversation, limit: 500).messages.map(\.text)) }
        return texts
    }

    /// Stops the readers.
    func stop() { readers.forEach { $0.cancel() } }
}
