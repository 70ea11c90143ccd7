import ArgumentParser
import Chat
import Foundation
import Kernel

/// What a server's retention pass (`retention.days`) does to sends: the p99 latency of sends
/// while a pass deletes a million old messages, against the same sends with no pass, in the same
/// minutes, on one SQLite store and its one writer (the server's). The goal: at most 2×. Sends
/// go back to back (the writer never idle), then one every 10 ms (a steady chat); how fast the
/// pass deletes meanwhile is reported too.
struct RetentionBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retention", abstract: "p99 send latency while a retention pass deletes old messages, against none.")
    @Option(help: "Old messages the pass deletes (seeded ten days old).") var size = 1_000_000
    @Option(help: "Sends timed back to back, with the pass and without it.") var sends = 3_000
    @Option(help: "Sends timed one every 10 ms, with the pass and without it.") var pacedSends = 300
    @Option(help: "Runs; the median run is reported.") var runs = 3

    /// One run's figures: p99s in seconds without and with the pass, and the pass's deletions a second.
    struct Figures {
        var ratio = 0.0, quiet = 0.0, busy = 0.0, rate = 0.0
    }

    @MainActor func run() async throws {
        var backToBack: [Figures] = [], paced: [Figures] = []
        for run in 1...runs {
            let world = try await World()
            defer { world.remove() }
            let (me, other, old) = try await world.pair()
            try Seeder.messages(size, in: old, from: [me.userID, other.userID], path: world.path, age: 10 * 86_400)
            let (sender, _, room) = try await world.pair()
            let graph = world.container.graph
            let chat = graph.services(for: graph.caller(token: sender.token)).chat
            var figures: [Figures] = []
            for (count, every) in [(sends, Duration.zero), (pacedSends, Duration.milliseconds(10))] {
                let without = try await Self.latencies(count, every: every, of: chat, to: room)
                let started = ContinuousClock.now
                let pass = Task.detached { try await graph.erase(.sentBefore(Date() - 86_400)) }
                let with = try await Self.latencies(count, every: every, of: chat, to: room)
                pass.cancel()
                let erased = try await pass.value, seconds = (ContinuousClock.now - started) / .seconds(1)
                let (quiet, busy) = (Stats.percentile(without, 0.99), Stats.percentile(with, 0.99))
                figures.append(Figures(ratio: busy / quiet, quiet: quiet, busy: busy, rate: Double(erased) / seconds))
                print(
                    "run \(run), sends \(every == .zero ? "back to back" : "every 10 ms"): p99 \(Stats.format(quiet * 1_000, 2)) ms without a pass, "
                        + "\(Stats.format(busy * 1_000, 2)) ms during one (\(Stats.format(busy / quiet, 2))×); it deleted \(erased) in \(Stats.format(seconds, 1)) s"
                )
            }
            backToBack.append(figures[0])
            paced.append(figures[1])
        }
        for (name, all) in [("back to back", backToBack), ("one every 10 ms", paced)] {
            print(
                "retention, \(size) old messages, sends \(name) (median of \(runs) runs): p99 \(Stats.format(Stats.median(all.map(\.quiet)) * 1_000, 2)) ms "
                    + "without a pass, \(Stats.format(Stats.median(all.map(\.busy)) * 1_000, 2)) ms during one: "
                    + "\(Stats.format(Stats.median(all.map(\.ratio)), 2))× (goal ≤ 2); the pass deleted \(Stats.format(Stats.median(all.map(\.rate)), 0)) messages/s"
            )
        }
    }

    /// The time each of `count` sends takes, one after another, each starting `every` after the last began.
    @MainActor static func latencies(_ count: Int, every: Duration, of chat: any ChatService, to room: ConversationID) async throws -> [Double] {
        var times: [Double] = []
        times.reserveCapacity(count)
        let clock = ContinuousClock()
        var next = clock.now
        for index in 0..<count {
            if every > .zero {
                try await clock.sleep(until: next)
                next += every
            }
            times.append(try await Stats.time { _ = try await chat.send(id: .random(), text: "send \(index)", to: room) })
        }
        return times
    }
}
