import ArgumentParser
import Foundation
import GRDB
import Kernel
import ServiceGraph
import TestSupport

/// Acknowledged sends per second from one process into one conversation, one call per message,
/// beside the floor: the same SQL run through SQLite's C API in this process (`SendFloor`), on a
/// database of its own, alternated with the services' runs so that both see the same minutes.
struct SendBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send", abstract: "Acknowledged sends per second, and their ratio to SQLite's own speed with the same SQL.")
    @Option(help: "Messages per run.") var count = 5_000
    @Option(help: "Runs of each.") var runs = 5
    @Flag(help: "Only the services' sends, without the floor.") var noFloor = false
    @Flag(
        help: "Without keeping the search index (its progress table dropped, so its follower finds nothing to do), to measure what keeping it costs.")
    var withoutSearchIndex = false
    @Option(help: "sqlite, or postgres (a database of the tests' PostgreSQL cluster; no floor).") var store = "sqlite"
    @Flag(help: "Each message mentions the other member (@Other), so each send looks up blocks and names.") var mention = false
    @Option(
        help:
            "Messages put into the conversation before the runs (written straight into the file), so that a send whose cost grows with its conversation shows."
    )
    var seed = 0
    @OptionGroup var goal: Goal.Guard

    /// The text of message `index`.
    private func text(_ index: Int) -> String { (mention ? "@Other " : "") + "message \(index) " + Seeder.text }

    @MainActor func run() async throws {
        guard store != "postgres" else { return try await runOnPostgres() }
        var rates: [Double] = [], floors: [Double] = []
        for run in 1...runs {
            let world = try await World()
            defer { world.remove() }
            let (me, other, conversation) = try await world.pair()
            if seed > 0 { try Seeder.messages(seed, in: conversation, from: [me.userID, other.userID], path: world.path) }
            if withoutSearchIndex {
                try Self.dropSearchIndex(world.path)
            } else {
                // A process that has searched keeps the index as it sends (a REPL, a server).
                _ = try await world.container.services.search.search("message", in: nil, limit: 1, before: nil)
            }
            let seconds = try await Stats.time {
                for index in 0..<count {
                    _ = try await world.container.chat.send(id: .random(), text: text(index), to: conversation)
                }
                // What the index has left to do is part of what the sends cost: a search does it first.
                if !withoutSearchIndex { _ = try await world.container.services.search.search("message", in: nil, limit: 1, before: nil) }
            }
            rates.append(Double(count) / seconds)
            var line = "run \(run): \(Int(rates[rates.count - 1])) sends/s"
            if !noFloor {
                let floorWorld = try await World()
                defer { floorWorld.remove() }
                let (floorMe, floorOther, floorConversation) = try await floorWorld.pair()
                if seed > 0 { try Seeder.messages(seed, in: floorConversation, from: [floorMe.userID, floorOther.userID], path: floorWorld.path) }
                var floor = try SendFloor(path: floorWorld.path)
                defer { floor.close() }
                floors.append(try floor.rate(count: count, in: floorConversation, from: floorMe.userID))
                line += ", floor \(Int(floors[floors.count - 1]))/s"
            }
            print(line)
        }
        var summary =
            "send: median \(Int(Stats.median(rates))) acknowledged sends/s (\(count) per run, \(runs) runs"
            + (seed > 0 ? ", into a conversation of \(seed) messages)" : ")")
        if !noFloor {
            summary +=
                "; floor (the same SQL through SQLite's C API) median \(Int(Stats.median(floors)))/s; "
                + "ratio \(Stats.format(Stats.median(rates) / Stats.median(floors), 2)) (per run: "
                + zip(rates, floors).map { Stats.format($0 / $1, 2) }.joined(separator: ", ") + ")"
        }
        print(summary)
        try goal.atLeast("send: median", Stats.median(rates), goal: Goal.sendsPerSecond, unit: "sends/s")
    }

    /// The runs on a new database of the tests' PostgreSQL cluster each: with the index kept, the
    /// instance has searched first (so it follows commits) and searches last (its leftover work
    /// counted); without, it never searches, so nothing follows.
    @MainActor private func runOnPostgres() async throws {
        let cluster = try await PostgresCluster.shared()
        var rates: [Double] = []
        for run in 1...runs {
            let graph = try await ServiceGraph.open(
                GraphOptions(backend: .postgres, sqlitePath: "", bcryptCost: 4, postgresURL: try await cluster.database()))
            defer { graph.close() }
            let me = try await graph.accounts.signUp(email: "me@bench.io", displayName: "Me", password: "bench-password")
            let other = try await graph.accounts.signUp(email: "other@bench.io", displayName: "Other", password: "bench-password")
            let services = graph.services(for: graph.caller(token: me.token))
            let conversation = try await services.conversations.startDirect(with: other.account.id).id
            _ = try await graph.services(for: graph.caller(token: other.token)).conversations.accept(conversation)
            if !withoutSearchIndex { _ = try await services.search.search("message", in: nil, limit: 1, before: nil) }
            let seconds = try await Stats.time {
                for index in 0..<count { _ = try await services.chat.send(id: .random(), text: text(index), to: conversation) }
                if !withoutSearchIndex { _ = try await services.search.search("message", in: nil, limit: 1, before: nil) }
            }
            rates.append(Double(count) / seconds)
            print("run \(run): \(Int(rates[rates.count - 1])) sends/s")
        }
        print(
            "send on postgres\(withoutSearchIndex ? " without the search index" : ""): median \(Int(Stats.median(rates))) acknowledged sends/s (\(count) per run, \(runs) runs)"
        )
    }

    /// Drops the search index's progress mark: its follower then fails at once and keeps no index.
    static func dropSearchIndex(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "DROP TABLE search_progress") }
        try queue.close()
    }
}

/// Newest page and 100 older pages of 50, in conversations of different sizes.
struct HistoryBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "Page load times by conversation size.")
    @Option(parsing: .upToNextOption, help: "Conversation sizes.") var sizes = [10_000, 1_000_000]
    @Option(help: "Runs per size.") var runs = 5
    @Flag(help: "Give the newest page reactions (three emoji on each message, one of them the other member's) and 25 replies to older messages.")
    var decorated = false
    @OptionGroup var goal: Goal.Guard

    @MainActor func run() async throws {
        for size in sizes {
            let world = try await World()
            defer { world.remove() }
            let (me, other, conversation) = try await world.pair()
            try Seeder.messages(size, in: conversation, from: [me.userID, other.userID], path: world.path)
            if decorated {
                let chat = world.container.chat
                for index in 0..<25 {
                    let older = try await chat.latestMessages(in: conversation, limit: 200).messages[index * 4]
                    _ = try await chat.send(id: .random(), text: "reply \(index)", to: conversation, replyTo: older.id)
                }
                // Another member's reactions make each page look up whom the reader is apart from.
                let theirs = world.container.graph.services(for: world.container.graph.caller(token: other.token)).chat
                for message in try await chat.latestMessages(in: conversation, limit: 50).messages {
                    for emoji in ["👍", "🎉"] { _ = try await chat.react(to: message.id, in: conversation, with: emoji, adding: true) }
                    _ = try await theirs.react(to: message.id, in: conversation, with: "🔥", adding: true)
                }
            }
            var newest: [Double] = [], older: [Double] = []
            for _ in 1...runs {
                var page = try await world.container.chat.latestMessages(in: conversation, limit: 50)
                newest.append(try await Stats.time { _ = try await world.container.chat.latestMessages(in: conversation, limit: 50) })
                for _ in 0..<100 {
                    if !page.hasOlder { page = try await world.container.chat.latestMessages(in: conversation, limit: 50) }
                    let cursor = page.messages[0].id
                    older.append(
                        try await Stats.time {
                            page = try await world.container.chat.messages(in: conversation, before: cursor, limit: 50)
                        })
                }
            }
            print(
                "history \(size) messages\(decorated ? " (newest page with reactions and replies)" : ""): newest page median \(Stats.format(Stats.median(newest) * 1_000, 3)) ms, "
                    + "older pages median \(Stats.format(Stats.median(older) * 1_000, 3)) ms (p99 \(Stats.format(Stats.percentile(older, 0.99) * 1_000, 3)) ms)"
            )
            try goal.atMost("history \(size) messages: newest page median", Stats.median(newest) * 1_000, goal: Goal.pageMilliseconds, unit: "ms")
            try goal.atMost("history \(size) messages: older pages median", Stats.median(older) * 1_000, goal: Goal.pageMilliseconds, unit: "ms")
        }
    }
}

/// An edit of a message far back in a large conversation against one of the newest: the same
/// work (one row by its key, one event), whatever the message's age.
struct EditBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Edit time of an old message against a new one.")
    @Option(help: "Messages in the conversation: the old message is this many events back.") var size = 100_000
    @Option(help: "Edits of each kind (at most 50).") var runs = 20

    @MainActor func run() async throws {
        let world = try await World()
        defer { world.remove() }
        let (me, other, conversation) = try await world.pair()
        // Even positions are mine; each edit takes a message of its own (a message takes 10 edits at most).
        let size = size + size % 2, runs = min(runs, 50)
        try Seeder.messages(size, in: conversation, from: [me.userID, other.userID], path: world.path)
        let queue = try DatabaseQueue(path: world.path)
        func ids(_ positions: [Int]) throws -> [MessageID] {
            try queue.read { db in
                try positions.map { position in
                    MessageID(
                        try String.fetchOne(
                            db, sql: "SELECT id FROM messages WHERE conversation_id = ? AND position = ?",
                            arguments: [conversation.rawValue, position]) ?? "")
                }
            }
        }
        let old = try ids((1...runs).map { 2 * $0 }), new = try ids((0..<runs).map { size - 2 * $0 })
        try queue.close()
        var oldTimes: [Double] = [], newTimes: [Double] = []
        for (oldID, newID) in zip(old, new) {
            oldTimes.append(try await Stats.time { _ = try await world.container.chat.edit(oldID, in: conversation, text: "edited long after") })
            newTimes.append(try await Stats.time { _ = try await world.container.chat.edit(newID, in: conversation, text: "edited at once") })
        }
        let (oldMedian, newMedian) = (Stats.median(oldTimes) * 1_000, Stats.median(newTimes) * 1_000)
        print(
            "edit, \(size) messages: a message \(size - 2) events back median \(Stats.format(oldMedian, 3)) ms, one of the newest "
                + "\(Stats.format(newMedian, 3)) ms (ratio \(Stats.format(oldMedian / newMedian, 2)), \(runs) edits each)")
    }
}

/// The full conversation list of a user in many conversations.
struct ListBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Conversation list load time.")
    @Option(help: "Conversations.") var conversations = 10_000
    @Option(help: "Runs.") var runs = 7
    @OptionGroup var goal: Goal.Guard

    @MainActor func run() async throws {
        let world = try await World()
        defer { world.remove() }
        let me = try await world.user("Me")
        try Seeder.conversations(conversations, for: me.userID, path: world.path)
        var times: [Double] = []
        var rows = 0
        for _ in 1...runs {
            times.append(try await Stats.time { rows = try await world.container.conversations.conversations().count })
        }
        print("list: \(rows) conversations, sorted with unread counts: median \(Stats.format(Stats.median(times) * 1_000)) ms (\(runs) runs)")
        // The goal is for 10,000 conversations; a smaller list is held to it as well.
        try goal.atMost("list of \(rows) conversations: median", Stats.median(times) * 1_000, goal: Goal.listMilliseconds, unit: "ms")
    }
}

/// Bytes on disk per stored 100-character message, at several sizes.
struct StorageBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "storage", abstract: "Bytes per stored message.")
    @Option(parsing: .upToNextOption, help: "Message counts.") var sizes = [10_000, 100_000, 1_000_000]

    @MainActor func run() async throws {
        for size in sizes {
            let world = try await World()
            defer { world.remove() }
            let (me, other, conversation) = try await world.pair()
            try Seeder.checkpoint(world.path)
            let empty = try FileManager.default.attributesOfItem(atPath: world.path)[.size] as? Int ?? 0
            try Seeder.messages(size, in: conversation, from: [me.userID, other.userID], path: world.path)
            try Seeder.checkpoint(world.path)
            let full = try FileManager.default.attributesOfItem(atPath: world.path)[.size] as? Int ?? 0
            print("storage \(size) messages of 100 characters: \(full) bytes, \(Stats.format(Double(full - empty) / Double(size), 1)) bytes/message")
        }
    }
}

/// Send → live receipt inside one process while many other users' live readers are open: with
/// the fan-out by conversation and member, unrelated readers should cost a message nothing.
struct FanOutBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fanout",
        abstract: "In-process live delivery with many unrelated live readers open.")
    @Option(parsing: .upToNextOption, help: "Numbers of unrelated live readers to try.") var readers: [Int] = [0, 1_000]
    @Option(help: "Messages per try.") var count = 300

    @MainActor func run() async throws {
        for readerCount in readers {
            let world = try await World()
            defer { world.remove() }
            let (me, other, conversation) = try await world.pair()
            let graph = world.container.graph
            var listeners: [Task<Void, Never>] = []
            for index in 0..<readerCount {
                let stranger = try await world.user("Stranger\(index)")
                let stream = try await graph.services(for: graph.caller(token: stranger.token)).events.liveMessages(in: nil)
                listeners.append(Task { for await _ in stream {} })
            }
            let sender = graph.services(for: graph.caller(token: me.token)).chat
            var received = try await graph.services(for: graph.caller(token: other.token)).events.liveMessages(in: conversation)
                .makeAsyncIterator()
            var latencies: [Double] = []
            for index in 0..<count {
                latencies.append(
                    try await Stats.time {
                        _ = try await sender.send(id: .random(), text: "fan \(index)", to: conversation)
                        _ = await received.next(isolation: #isolation)
                    } * 1_000)
            }
            listeners.forEach { $0.cancel() }
            print(
                "fanout: \(readerCount) unrelated live readers: send → receipt p50 \(Stats.format(Stats.percentile(latencies, 0.5), 3)) ms, "
                    + "p99 \(Stats.format(Stats.percentile(latencies, 0.99), 3)) ms (\(count) messages)")
        }
    }
}
