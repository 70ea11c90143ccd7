import Chat
import Foundation
import Kernel
import ServiceGraph
import TestSupport

/// The server's recovery figures: sends through kill -9s, a reconnect storm, idle sockets held.
extension ServerBench {
    /// `pairs` senders send `total` messages in all (at most `perSecond` in all, when given) while
    /// `drill` crashes what it crashes; receivers listen live throughout. Judged by a
    /// `DeliveryLedger`, with the rate achieved and the longest the clients went unserved.
    func killed(_ world: some LoadTarget, pairs: Int, total: Int, perSecond: Int?, drill: KillDrill) async throws -> Result {
        let conversations = try await world.pairs(pairs)
        let ledger = DeliveryLedger()
        for pair in conversations {
            let events = try await pair.receiver.events.liveEvents()
            Task { for await case .message(let message) in events { ledger.received(message.id, in: message.conversationID) } }
        }
        if client != .http { try await world.connect(conversations.map(\.sender)) }
        let started = ContinuousClock.now
        let interval = perSecond.map { Duration.seconds(Double(pairs) / Double($0)) }
        try await withThrowingTaskGroup { group in
            for (place, pair) in conversations.enumerated() {
                // The senders' paces a fraction of an interval apart, so the load is even.
                let pace = interval.map { (start: started + $0 * place / pairs, interval: $0) }
                group.addTask {
                    _ = try await drill.send(total / pairs, in: pair.conversation, noting: ledger, pace: pace) { id, index in
                        _ = try await pair.sender.chat.send(id: id, text: "k\(index)", to: pair.conversation)
                    }
                }
            }
            try await group.waitForAll()
        }
        let sending = (ContinuousClock.now - started) / .seconds(1)
        let kills = try await drill.finish()
        await ledger.waitForArrivals(total / pairs * pairs, timeout: .seconds(120))
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        let verdict = ledger.verdict
        return Result(
            key: elapsed,
            line: "\(verdict) through \(kills) kill -9s, in \(Stats.format(elapsed, 1)) s; "
                + "\(Stats.format(Double(drill.acknowledgedCount) / sending, 0)) sends/s acknowledged"
                + (perSecond.map { " of \($0)/s offered" } ?? "") + "; longest without an acknowledged send: "
                + "\(Stats.format(drill.longestPause / .milliseconds(1), 0)) ms" + (verdict.isPerfect ? "" : " — NOT PERFECT"))
    }

    /// `clients` receivers each miss `missed` messages while away, then all resume after their
    /// cursors at once, through a fresh client connection (new sockets): time until every one
    /// has caught up, and whether any message was lost or repeated.
    func reconnectStorm(_ world: ServerFixture, clients: Int, missed: Int) async throws -> Result {
        let senders = try await world.users(max(1, clients / 20))
        let receivers = try await world.users(clients)
        let conversations = try await ServerFixture.concurrently(clients, width: 16) { index in
            let id = try await senders[index % senders.count].conversations.startDirect(with: receivers[index].id).id
            _ = try await receivers[index].conversations.accept(id)
            return id
        }
        let cursors = try await ServerFixture.concurrently(clients, width: 16) { index in try await receivers[index].events.newestCursor() }
        let ledger = DeliveryLedger()
        _ = try await ServerFixture.concurrently(clients, width: 32) { index in
            for number in 0..<missed {
                let message = try await senders[index % senders.count].chat.send(id: .random(), text: "missed \(number)", to: conversations[index])
                ledger.acknowledged(message.id, in: message.conversationID)
            }
        }
        let elsewhere = try ServiceGraph(GraphOptions(backend: .remote, sqlitePath: "", remoteURL: world.server.url))
        let started = ContinuousClock.now
        let spans = try await ServerFixture.concurrently(clients, width: clients) { index in
            let events = elsewhere.services(for: elsewhere.caller(token: receivers[index].token)).events
            var got = 0
            for await case .message(let message) in try await events.liveEvents(after: cursors[index]) {
                ledger.received(message.id, in: message.conversationID)
                got += 1
                if got == missed { break }
            }
            return (ContinuousClock.now - started) / .seconds(1)
        }
        let verdict = ledger.verdict
        let last = spans.max() ?? .nan
        return Result(
            key: last,
            line: "\(clients) clients each \(missed) behind resumed at once: all caught up in \(Stats.format(last, 2)) s "
                + "(p50 \(Stats.format(Stats.percentile(spans, 0.5), 2)) s); \(verdict)" + (verdict.isPerfect ? "" : " — NOT PERFECT"))
    }

    /// `count` authenticated events sockets opened and held: the server's memory and file
    /// descriptors before and after, and the processor time it spends holding them over 35 s, long
    /// enough for every socket's session to be checked again (`OpenSockets`, every 30 s).
    func idleSockets(_ world: ServerFixture, count: Int) async throws -> Result {
        let users = try await world.users(count)
        let before = try world.serverFootprint()
        var streams: [AsyncStream<UserEvent>] = []
        streams.reserveCapacity(count)
        for chunk in stride(from: 0, to: count, by: 200) {
            streams += try await ServerFixture.concurrently(min(200, count - chunk), width: 200) { index in
                try await users[chunk + index].events.liveEvents()
            }
        }
        // The sockets are open (each stream returned after its socket.ready); let the server settle.
        try await Task.sleep(for: .seconds(2))
        let after = try world.serverFootprint()
        let perSocket = Double(after.bytes - before.bytes) / Double(count)
        let (held, cpu) = (ContinuousClock.now, world.serverCPUTime())
        try await Task.sleep(for: .seconds(35))
        let busy = (world.serverCPUTime() - cpu) / ((ContinuousClock.now - held) / .seconds(1))
        withExtendedLifetime(streams) {}
        return Result(
            key: perSocket,
            line: "\(count) idle sockets held (\(after.descriptors - before.descriptors) more descriptors): server RSS "
                + "\(before.bytes / 1_048_576) → \(after.bytes / 1_048_576) MiB, \(Stats.format(perSocket / 1_024, 1)) KiB per socket; "
                + "holding them costs \(Stats.format(busy * 100, 1))% of a core")
    }
}
