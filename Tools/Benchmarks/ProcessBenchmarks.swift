import AppContainer
import ArgumentParser
import Auth
import Foundation
import Kernel
import TestSupport

/// Wall time of `messageai chats --json` against a database of a million messages.
struct StartupBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "startup", abstract: "Whole-process time of `messageai chats --json`.")
    @Option(help: "The messageai executable (build it with -c release).") var messageai = ".build/release/messageai"
    @Option(help: "Messages in the database.") var messages = 1_000_000
    @Option(help: "Runs.") var runs = 20

    @MainActor func run() async throws {
        let world = try await World()
        defer { world.remove() }
        let (me, other, conversation) = try await world.pair()
        try Seeder.messages(messages, in: conversation, from: [me.userID, other.userID], path: world.path)
        try Seeder.checkpoint(world.path)
        let environment = try await world.environment(signedInAs: me)
        var times: [Double] = []
        for _ in 0..<runs {
            times.append(
                try await Stats.time {
                    let child = try Child(messageai, ["chats", "--json"], environment: environment)
                    for await _ in child.lines {}
                    child.process.waitUntilExit()
                    guard child.process.terminationStatus == 0 else { throw ValidationError("messageai exited \(child.process.terminationStatus)") }
                })
        }
        print(
            "startup: `messageai chats --json` with \(messages) messages: median \(Stats.format(Stats.median(times) * 1_000, 1)) ms wall (\(runs) runs)"
        )
    }
}

/// Send-to-receive latency between two processes, and the idle CPU use of a listening REPL.
struct LiveBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "live", abstract: "Cross-process latency and idle CPU.")
    @Option(help: "The messageai executable, for the idle REPL.") var messageai = ".build/release/messageai"
    @Option(help: "Messages sent.") var count = 400
    @Option(help: "Pause between sends, ms.") var gap = 20
    @Option(help: "Idle measurement, seconds.") var idle = 10

    @MainActor func run() async throws {
        let world = try await World()
        defer { world.remove() }
        let (me, other, conversation) = try await world.pair()
        let listener = try Child(
            Child.selfPath, ["child", "listen"] + ChildProcess.Identity.arguments(path: world.path, as: other, in: conversation))
        var lines = listener.lines.makeAsyncIterator()
        _ = await lines.next(isolation: #isolation)
        for index in 0..<count {
            _ = try await world.container.chat.send(id: .random(), text: "ping \(index)", to: conversation)
            try await Task.sleep(for: .milliseconds(gap))
        }
        var latencies: [Double] = []
        while latencies.count < count, let line = await lines.next(isolation: #isolation) { latencies.append(Double(line) ?? .nan) }
        listener.process.terminate()
        print(
            "live: \(latencies.count)/\(count) delivered across processes; latency p50 \(Stats.format(Stats.percentile(latencies, 0.5), 1)) ms, "
                + "p99 \(Stats.format(Stats.percentile(latencies, 0.99), 1)) ms, max \(Stats.format(latencies.max() ?? .nan, 1)) ms")
        try await idleREPL(world: world, session: me)
    }

    /// A real REPL (scripted input, so no terminal is needed) sitting in a conversation.
    @MainActor private func idleREPL(world: World, session: Session) async throws {
        let repl = try Child(messageai, ["repl"], environment: try await world.environment(signedInAs: session))
        repl.send("/open Other")
        var lines = repl.lines.makeAsyncIterator()
        while let line = await lines.next(isolation: #isolation), !line.contains("/more for older") {}
        let before = repl.cpuSeconds
        try await Task.sleep(for: .seconds(idle))
        let used = repl.cpuSeconds - before
        repl.process.terminate()
        print("idle REPL in a conversation: \(Stats.format(used / Double(idle) * 100, 2))% of one core over \(idle) s")
    }
}

/// Four processes sending into one conversation at once.
struct ConcurrentBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "concurrent", abstract: "Several processes sending at once.")
    @Option(help: "Processes.") var processes = 4
    @Option(help: "Messages per process.") var count = 1_000

    @MainActor func run() async throws {
        let world = try await World()
        defer { world.remove() }
        let (me, _, conversation) = try await world.pair()
        let start = ContinuousClock.now
        let children = try (0..<processes).map { _ in
            try Child(
                Child.selfPath,
                ["child", "send", "--count", "\(count)"]
                    + ChildProcess.Identity.arguments(path: world.path, as: me, in: conversation))
        }
        var iterators = children.map { $0.lines.makeAsyncIterator() }
        var errors = 0
        for index in iterators.indices { errors += Int(await iterators[index].next(isolation: #isolation)?.split(separator: " ").last ?? "1") ?? 1 }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        children.forEach { $0.send("go") }
        var orders: Set<String> = []
        for index in iterators.indices { orders.insert(await iterators[index].next(isolation: #isolation) ?? "none") }
        let stored = try await world.container.chat.latestMessages(in: conversation, limit: 1).messages.first
        print(
            "concurrent: \(processes) processes × \(count) sends in \(Stats.format(seconds, 2)) s; errors reaching a user: \(errors); "
                + "every process saw the same order: \(orders.count == 1) (\(orders.first ?? "")); newest: \(stored?.text ?? "none")")
    }
}

/// Kills a sending process with SIGKILL and checks every acknowledged message is stored.
struct KillBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "kill9", abstract: "No acknowledged send is lost to kill -9.")
    @Option(help: "Acknowledgements to wait for before killing.") var after = 2_000
    @Option(help: "Rounds.") var rounds = 5

    @MainActor func run() async throws {
        for round in 1...rounds {
            let world = try await World()
            defer { world.remove() }
            let (me, _, conversation) = try await world.pair()
            let sender = try Child(
                Child.selfPath,
                ["child", "send", "--acks", "--count", "1000000"]
                    + ChildProcess.Identity.arguments(path: world.path, as: me, in: conversation))
            var acknowledged: [String] = []
            var lines = sender.lines.makeAsyncIterator()
            while acknowledged.count < after, let line = await lines.next(isolation: #isolation) { acknowledged.append(line) }
            kill(sender.process.processIdentifier, SIGKILL)
            sender.process.waitUntilExit()
            while let line = await lines.next(isolation: #isolation) { acknowledged.append(line) }
            let stored = try await storedIDs(world, conversation)
            let lost = Set(acknowledged).subtracting(stored)
            print("kill9 round \(round): \(acknowledged.count) acknowledged, \(stored.count) stored, lost \(lost.count)")
        }
    }

    @MainActor private func storedIDs(_ world: World, _ conversation: ConversationID) async throws -> Set<String> {
        let reopened = try await World.container(path: world.path, sessions: world.sessions)
        return Set(try await World.messageIDs(in: conversation, of: reopened))
    }
}
