import AsyncHTTPClient
import Foundation
import Kernel
import NIOCore
import ServiceGraph
import Synchronization

extension ServerBench {
    /// Webhook posts acknowledged per second: each of `pairs` tools posts, one at a time, a small
    /// Slack message to a hook of its own (a bot of the sender's in a group with its receiver),
    /// as Alertmanager or CI does; every post is delivered live to the receiver, counted.
    func hookThroughput(_ world: some LoadTarget, pairs: Int) async throws -> Result {
        let users = try await world.users(pairs * 2)
        let graph = world.graph
        let hooks = try await ServerFixture.concurrently(pairs, width: 8) { index in
            let (sender, receiver) = (users[index * 2], users[index * 2 + 1])
            let group = try await sender.conversations.createGroup(title: "Hooks \(index)", memberIDs: [receiver.id])
            _ = try await receiver.conversations.accept(group.id)
            let bots = graph.bots(for: graph.caller(token: sender.token))
            _ = try await bots.createBot(named: "Bench")
            let hook = try await bots.createHook(in: group.id, as: "Bench")
            return world.url + hook.credential.path(secret: hook.secret)
        }
        let delivered = Atomic<Int>(0)
        for index in 0..<pairs {
            _ = try await LoadSocket.open(world.receiverURL(index), token: users[index * 2 + 1].token) { _, _ in
                delivered.add(1, ordering: .relaxed)
            }
        }
        let body = ByteBuffer(string: #"{"text":"build 42 passed","username":"CI"}"#)
        let deadline = ContinuousClock.now + .seconds(seconds)
        let started = ContinuousClock.now
        let (posted, refused) = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for url in hooks {
                group.addTask {
                    var (posted, refused) = (0, 0)
                    while ContinuousClock.now < deadline {
                        var request = HTTPClientRequest(url: url)
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.body = .bytes(body)
                        let response = try await Self.attackClient.execute(request, timeout: .seconds(30))
                        for try await _ in response.body {}
                        if response.status.code == 204 { posted += 1 } else { refused += 1 }
                    }
                    return (posted, refused)
                }
            }
            return try await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        let waitUntil = ContinuousClock.now + .seconds(60)
        while delivered.load(ordering: .relaxed) < posted, ContinuousClock.now < waitUntil { try await Task.sleep(for: .milliseconds(5)) }
        let rate = Double(posted) / elapsed
        return Result(
            key: rate,
            line: "\(posted) hook posts acknowledged from \(pairs) tools in \(Stats.format(elapsed, 1)) s: \(Int(rate)) posts/s, "
                + "\(delivered.load(ordering: .relaxed)) delivered, \(refused) refused")
    }
}
