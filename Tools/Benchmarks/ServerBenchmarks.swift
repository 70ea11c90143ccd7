import ArgumentParser
import Chat
import Foundation
import Kernel
import ServiceGraph
import Synchronization
import TestSupport

/// The server's figures: a real `messageai-server` process, and this process as the load
/// generator, both on loopback. In the latency, throughput and fan-out modes the clients are
/// bare sockets (`LoadSocket`) unless `--client` says otherwise; the recovery modes use the
/// remote services, whose reconnecting and resuming they measure.
struct ServerBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server", abstract: "Latency, throughput, fan-out and recovery through messageai-server.",
        discussion:
            "Build both first (the server beside this benchmark is used): swift build -c release --product messageai-server --product messageai-bench"
    )
    @Option(
        help: """
            latency, throughput, hooks (tools posting to webhooks, one HTTP POST at a time each: --pairs tools), fanout, kill, reconnect, idle; renames or flood (the security review's abuse, with the server's budgets); \
            changes (one member edits and reacts in a loop in a group, with budgets, while two others talk in it); \
            typing (one member sends typing frames at full speed on a bare socket in a group while two others talk in it); \
            search, trap, pages or groups (the second review's attacks, with budgets, also with --deployment proxy or postgres; --seconds 30 \
            recommended): four searches at a time of one's own 101 messages of 4,000 × 東; 10 reactions from each of 190 members \
            to a 16,000-byte reply quoting 80 combining-mark characters, every member listening; 64 event-log pages of those \
            at once; 10 accounts making 10 groups of the same 1,000 invitees at once; calm (no attack, the bystanders alone); \
            with --deployment crossed or proxy: latency, throughput, hooks, fanout, quiet (idle instances), kill (5 instance kills alternating, \
            --rate messages/s for --seconds) or postmaster (PostgreSQL killed and started again, the same load).
            """)
    var mode = "latency"
    @Option(help: "Runs; the median run is reported.") var runs = 3
    @Option(help: "Seconds each run sends for.") var seconds = 5
    @Option(help: "Sender→receiver pairs (latency: 10; throughput: 50).") var pairs: Int?
    @Option(help: "Messages per second in all (latency; kill and postmaster on the scaled-out server).") var rate = 200
    @Option(
        help:
            "Clients (reconnect: 1,000; idle: 10,000); members of the abuser's groups (renames, flood, groups: 1,000; changes, typing: 200; trap, pages: 190)."
    ) var clients: Int?
    @Option(help: "Groups the renamer shares with the members (renames).") var groups = 20
    @Option(help: "Milliseconds the searcher waits after a refused search (search; 0: at once, a flood of refusals).") var refusedWait = 0
    @Option(
        help: """
            bare: minimal WebSocket clients, so the load generator takes little of the machine; library: the remote services a REPL \
            uses, sends on the events socket; http: the same, senders with no socket, so sends are HTTP PUTs as a one-shot CLI's \
            (latency, throughput, fanout; kill: library unless http).
            """)
    var client = ClientKind.bare
    @Option(
        help: """
            single: one server on a SQLite file; crossed: two instances on PostgreSQL behind HAProxy (Tools/Deploy/stack), each sender \
            on one instance and its receivers on the other, straight; proxy: the same, every client through the proxy \
            (latency, throughput, fanout, quiet); postgres: one instance on PostgreSQL, every client straight to it.
            """)
    var deployment = Deployment.single

    enum Deployment: String, ExpressibleByArgument, CaseIterable {
        case single, crossed, proxy, postgres
    }

    func run() async throws {
        if deployment != .single { return try await runCluster() }
        var results: [Result] = []
        for _ in 0..<runs {
            let world = try await ServerFixture(budgets: (["renames", "flood", "changes", "typing"] + Self.costAttacks).contains(mode))
            defer { world.stop() }
            switch mode {
            case "latency": results.append(try await latency(world, pairs: pairs ?? 10, perSecond: rate))
            case "throughput": results.append(try await throughput(world, pairs: pairs ?? 50))
            case "hooks": results.append(try await hookThroughput(world, pairs: pairs ?? 50))
            case "fanout": results.append(try await fanOut(world, members: 50, messages: 200))
            case "kill":
                let drill = KillDrill(server: world.server, killingAt: [100_000 / 3, 100_000 * 2 / 3])
                results.append(try await killed(world, pairs: 50, total: 100_000, perSecond: nil, drill: drill))
            case "reconnect": results.append(try await reconnectStorm(world, clients: clients ?? 1_000, missed: 20))
            case "idle": results.append(try await idleSockets(world, count: clients ?? 10_000))
            case "renames": results.append(try await renameLoop(world, members: clients ?? 1_000, groups: groups))
            case "flood": results.append(try await groupFlood(world, members: clients ?? 1_000))
            case "changes": results.append(try await changeStorm(world, members: clients ?? 200))
            case "typing": results.append(try await typingStorm(world, members: clients ?? 200))
            case _ where Self.costAttacks.contains(mode): results.append(try await costAttack(world))
            default:
                throw ValidationError(
                    "mode must be latency, throughput, hooks, fanout, kill, reconnect, idle, renames, flood, changes, typing, search, trap, pages, groups or calm"
                )
            }
            print("  run: \(results.last?.line ?? "")")
        }
        let median = results.sorted { $0.key < $1.key }[results.count / 2]
        print("server \(mode) (median of \(runs) runs): \(median.line)")
    }

    struct Result {
        let key: Double
        let line: String
    }

    /// The modes on the scaled-out server.
    private func runCluster() async throws {
        if deployment == .postgres, mode == "kill" {
            throw ValidationError("kill alternates between two instances: use --deployment crossed or proxy")
        }
        var results: [Result] = []
        for _ in 0..<runs {
            let world = try await ClusterFixture(deployment, budgets: Self.costAttacks.contains(mode))
            defer { world.stop() }
            switch mode {
            case "latency": results.append(try await latency(world, pairs: pairs ?? 10, perSecond: rate))
            case "throughput": results.append(try await throughput(world, pairs: pairs ?? 50))
            case "hooks": results.append(try await hookThroughput(world, pairs: pairs ?? 50))
            case "fanout": results.append(try await fanOut(world, members: 50, messages: 200))
            case "quiet": results.append(try await quiet(world))
            case "kill", "postmaster":
                // Five instance kills alternating, or one of the database, evenly spread over the sends.
                let (total, kills) = (rate * seconds, mode == "kill" ? 5 : 1)
                let drill = KillDrill(killingAt: (1...kills).map { total * $0 / (kills + 1) }) { number in
                    if mode == "kill" { try await world.stack.killInstance(number % 2 + 1) } else { try await world.stack.killDatabase() }
                }
                results.append(try await killed(world, pairs: pairs ?? 50, total: total, perSecond: rate, drill: drill))
            case _ where Self.costAttacks.contains(mode): results.append(try await costAttack(world))
            default:
                throw ValidationError(
                    "with --deployment \(deployment), mode must be latency, throughput, hooks, fanout, quiet, kill, postmaster, search, trap, pages, groups or calm"
                )
            }
            print("  run: \(results.last?.line ?? "")")
        }
        let median = results.sorted { $0.key < $1.key }[results.count / 2]
        print("server \(mode), \(deployment) (median of \(runs) runs): \(median.line)")
    }

    /// The processor time each instance spends with nobody connected, over `seconds` (at least 30).
    func quiet(_ world: ClusterFixture) async throws -> Result {
        let pids = try world.serverPIDs()
        let span = Duration.seconds(max(seconds, 30))
        let (start, before) = (ContinuousClock.now, pids.map { Child.cpuSeconds(of: $0) })
        try await Task.sleep(for: span)
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        let shares = zip(pids, before).map { (Child.cpuSeconds(of: $0) - $1) / elapsed * 100 }
        return Result(
            key: shares.max() ?? 0,
            line: "idle instances over \(Stats.format(elapsed, 0)) s: "
                + shares.map { "\(Stats.format($0, 3))%" }.joined(separator: " and ") + " of a core")
    }

    /// Send → receive latency: `pairs` one-to-one conversations, `perSecond` messages in all,
    /// evenly spread: each pair sends every `pairs / perSecond` s, the pairs a fraction of that
    /// apart, so that the server sees one message every `1 / perSecond` s rather than bursts.
    func latency(_ world: some LoadTarget, pairs: Int, perSecond: Int) async throws -> Result {
        let conversations = try await world.pairs(pairs)
        let clock = Arrivals()
        try await world.listen(conversations.map(\.receiver), as: client, arrivals: clock)
        let senders = try await world.senders(conversations.map(\.sender), as: client)
        let interval = Duration.seconds(Double(pairs) / Double(perSecond))
        let count = perSecond * seconds / pairs
        let start = ContinuousClock.now + .milliseconds(10)
        let acks = try await withThrowingTaskGroup(of: [Double].self) { group in
            for (place, (pair, sender)) in zip(conversations, senders).enumerated() {
                group.addTask {
                    var acks: [Double] = []
                    for index in 0..<count {
                        try await Task.sleep(until: start + interval * index + interval * place / pairs)
                        let id = MessageID.random()
                        let sent = ContinuousClock.now
                        clock.sent(id)
                        try await sender.send(id, "latency \(index)", pair.conversation)
                        acks.append((ContinuousClock.now - sent) / .milliseconds(1))
                    }
                    return acks
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let latencies = try await clock.latencies(expecting: count * pairs)
        let p50 = Stats.percentile(latencies, 0.5), p99 = Stats.percentile(latencies, 0.99)
        return Result(
            key: p50,
            line: "\(latencies.count) messages, \(pairs) pairs at \(perSecond)/s: p50 \(Stats.format(p50, 2)) ms, "
                + "p99 \(Stats.format(p99, 2)) ms, max \(Stats.format(latencies.max() ?? .nan, 1)) ms (send acknowledged: p50 "
                + "\(Stats.format(Stats.percentile(acks, 0.5), 2)) ms)")
    }

    /// Acknowledged (committed) sends per second, `pairs` senders at once, every message delivered.
    func throughput(_ world: some LoadTarget, pairs: Int) async throws -> Result {
        let conversations = try await world.pairs(pairs)
        let clock = Arrivals()
        try await world.listen(conversations.map(\.receiver), as: client, arrivals: clock)
        let senders = try await world.senders(conversations.map(\.sender), as: client)
        let deadline = ContinuousClock.now + .seconds(seconds)
        let started = ContinuousClock.now
        let sent = try await withThrowingTaskGroup(of: Int.self) { group in
            for (pair, sender) in zip(conversations, senders) {
                group.addTask {
                    var count = 0
                    while ContinuousClock.now < deadline {
                        let id = MessageID.random()
                        clock.sent(id)
                        try await sender.send(id, "throughput \(count)", pair.conversation)
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        let delivered = try await clock.latencies(expecting: sent).count
        let rate = Double(sent) / elapsed
        return Result(
            key: rate,
            line: "\(sent) acknowledged sends from \(pairs) senders in \(Stats.format(elapsed, 1)) s: "
                + "\(Int(rate)) messages/s, \(delivered) delivered")
    }

    /// One sender, a group of `members`: time until all the others have each message.
    func fanOut(_ world: some LoadTarget, members: Int, messages: Int) async throws -> Result {
        let users = try await world.users(members)
        let group = try await users[0].conversations.createGroup(title: "Fan-out", memberIDs: users.dropFirst().map(\.id))
        for member in users.dropFirst() { _ = try await member.conversations.accept(group.id) }
        let clock = Arrivals()
        try await world.listen(Array(users.dropFirst()), as: client, arrivals: clock)
        let sender = try await world.senders([users[0]], as: client)[0]
        var spans: [Double] = []
        for index in 0..<messages {
            let id = MessageID.random()
            clock.sent(id)
            try await sender.send(id, "fan-out \(index)", group.id)
            spans.append(try await clock.lastArrival(of: id, count: members - 1))
        }
        let p50 = Stats.percentile(spans, 0.5)
        return Result(
            key: p50,
            line: "\(messages) messages to a group of \(members): all \(members - 1) others have it after p50 "
                + "\(Stats.format(p50, 2)) ms, p99 \(Stats.format(Stats.percentile(spans, 0.99), 2)) ms")
    }
}
