import ArgumentParser
import Foundation
import GRDB
import Kernel

/// What a deletion costs on a SQLite store whose search index is built: the delete answers once
/// the index is purged of the message's words (ADR 27), so its time is the purge's. A second
/// deletion follows at once: its purge is the process's own if its time credit allows, or one the
/// index's follower already made, or one scheduled for later. Then the file is checkpointed and
/// searched for each deleted word.
struct PurgeBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge", abstract: "A deletion's purge of SQLite's search index, by the index's size.")
    @Option(help: "Messages in the conversation (indexed before the deletions).") var size = 1_000_000
    @Option(help: "Runs; the median run is reported.") var runs = 3

    @MainActor func run() async throws {
        var first: [Double] = [], second: [Double] = []
        for run in 1...runs {
            let world = try await World()
            defer { world.remove() }
            let (me, other, conversation) = try await world.pair()
            try Seeder.messages(size, in: conversation, from: [me.userID, other.userID], path: world.path, text: SearchBench.text)
            let chat = world.container.services.chat
            let secrets = [MessageID("purge-one"), MessageID("purge-two")]
            for (index, id) in secrets.enumerated() {
                _ = try await chat.send(id: id, text: "the secret word is xylophonequokka\(index)", to: conversation, replyTo: nil)
            }
            let indexing = try await Stats.time {
                _ = try await world.container.services.search.search("xylophonequokka0", in: nil, limit: 1, before: nil)
            }
            var times: [Double] = []
            for id in secrets { times.append(try await Stats.time { _ = try await chat.delete(id, in: conversation) }) }
            let left = try ["xylophonequokka0", "xylophonequokka1"].map { try Self.copies(of: $0, in: world.path) }
            print(
                "run \(run): indexed \(size) messages in \(Stats.format(indexing, 1)) s; first deletion \(Stats.format(times[0] * 1_000, 1)) ms, "
                    + "the next \(Stats.format(times[1] * 1_000, 1)) ms; copies of each one's word in the file after a checkpoint: \(left)")
            first.append(times[0])
            second.append(times[1])
        }
        print(
            "purge, \(size) messages indexed (median of \(runs) runs): first deletion \(Stats.format(Stats.median(first) * 1_000, 1)) ms, "
                + "the next \(Stats.format(Stats.median(second) * 1_000, 1)) ms")
    }

    /// How many times `word` stands in the file at `path`, after a checkpoint that empties its log.
    static func copies(of word: String, in path: String) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        _ = try queue.writeWithoutTransaction { try Row.fetchOne($0, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try queue.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path)), pattern = Data(word.utf8)
        var (count, start) = (0, bytes.startIndex)
        while let found = bytes.range(of: pattern, in: start..<bytes.endIndex) {
            count += 1
            start = found.upperBound
        }
        return count
    }
}
