import ArgumentParser
import Chat
import Foundation
import Kernel
import Search
import ServiceGraph
import TestSupport

/// Searches over a conversation of `--size` messages of 12 words each, drawn from 5,000 made-up
/// words with a skew (a few common, most rare): the latency of five kinds of query through the
/// services, each run `--queries` times, and of a common word searched by a stranger, a member of
/// none of those messages' conversations (whose search must not cost what the store holds).
struct SearchBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Search latency over a large conversation (SQLite's index).")
    @Option(help: "Messages in the conversation.") var size = 1_000_000
    @Option(help: "Runs of each kind of query.") var queries = 50
    @Option(help: "Runs; the median run is reported.") var runs = 3
    @Option(help: "sqlite, or postgres (a database of the tests' PostgreSQL cluster, seeded with SQL).") var store = "sqlite"
    @OptionGroup var goal: Goal.Guard

    /// The made-up words: syllables put together, the same every run.
    static let vocabulary: [String] = (0..<5_000).map { index in
        let syllables = ["ka", "lo", "mi", "ter", "sun", "va", "rex", "po", "lin", "dor", "el", "qui", "ba", "zen", "fu"]
        var word = "", rest = index + 15
        while rest > 0 {
            word += syllables[rest % syllables.count]
            rest /= syllables.count
        }
        return word
    }

    /// Message `position`'s text: 12 words, common ones far more often than rare ones.
    static func text(_ position: Int) -> String {
        var state = UInt64(truncatingIfNeeded: position) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (0..<12).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let uniform = Double(state >> 11) / Double(1 << 53)
            return vocabulary[Int(uniform * uniform * Double(vocabulary.count - 1))]
        }.joined(separator: " ")
    }

    @MainActor func run() async throws {
        let probe = Self.text(size / 2).split(separator: " ").map(String.init)
        let kinds: [(String, String)] = [
            ("a rare word", Self.vocabulary[4_990]), ("a common word", Self.vocabulary[1]),
            ("two words", "\(Self.vocabulary[3]) \(Self.vocabulary[40])"),
            ("a prefix", String(Self.vocabulary[2_000].prefix(4)) + "*"), ("a phrase", "\"\(probe[4]) \(probe[5])\""),
        ]
        var medians: [(p50: Double, p99: Double, line: String)] = []
        for run in 1...runs {
            let (search, stranger, remove) = try await store == "postgres" ? postgresSearch() : sqliteSearch()
            defer { remove() }
            // The first search indexes the seeded messages; only searches of an index kept up are timed.
            let indexing = try await Stats.time { _ = try await search.search("warm", in: nil, limit: 1, before: nil) }
            print("run \(run): indexed \(size) messages in \(Stats.format(indexing, 1)) s")
            var all: [Double] = []
            var parts: [String] = []
            for (kind, query, searcher) in kinds.map({ ($0, $1, search) }) + [("a common word by a stranger", Self.vocabulary[1], stranger)] {
                var times: [Double] = []
                var found = 0
                for _ in 0..<queries {
                    times.append(try await Stats.time { found = try await searcher.search(query, in: nil, limit: 20, before: nil).hits.count })
                }
                all += times
                parts.append("\(kind) p50 \(Stats.format(Stats.median(times) * 1_000, 2)) ms (\(found) shown)")
            }
            let line =
                "p50 \(Stats.format(Stats.median(all) * 1_000, 2)) ms, p99 \(Stats.format(Stats.percentile(all, 0.99) * 1_000, 2)) ms; "
                + parts.joined(separator: "; ")
            print("run \(run): \(line)")
            medians.append((Stats.median(all), Stats.percentile(all, 0.99), line))
        }
        let median = medians.sorted { $0.p50 < $1.p50 }[medians.count / 2]
        print("search \(size) messages on \(store) (median of \(runs) runs, \(queries) of each kind of query): \(median.line)")
        try goal.atMost("search \(size) messages on \(store): p50", median.p50 * 1_000, goal: Goal.searchP50Milliseconds, unit: "ms")
        try goal.atMost("search \(size) messages on \(store): p99", median.p99 * 1_000, goal: Goal.searchP99Milliseconds, unit: "ms")
    }

    /// A SQLite file with the conversation seeded; the searcher's service, a stranger's, and how to remove it all.
    @MainActor private func sqliteSearch() async throws -> (any SearchService, any SearchService, () -> Void) {
        let world = try await World()
        let (me, other, conversation) = try await world.pair()
        try Seeder.messages(size, in: conversation, from: [me.userID, other.userID], path: world.path, text: Self.text)
        let graph = world.container.graph
        let stranger = try await world.user("Stranger")
        _ = try await graph.services(for: graph.caller(token: stranger.token)).conversations.startDirect(with: other.userID)
        return (
            graph.services(for: graph.caller(token: me.token)).search, graph.services(for: graph.caller(token: stranger.token)).search,
            { world.remove() }
        )
    }

    /// A new database of the tests' PostgreSQL cluster with the conversation seeded by SQL (the
    /// texts drawn as `text` draws them, by PostgreSQL's random), and the searcher's service.
    private func postgresSearch() async throws -> (any SearchService, any SearchService, () -> Void) {
        let cluster = try await PostgresCluster.shared()
        let url = try await cluster.database()
        let graph = try await ServiceGraph.open(GraphOptions(backend: .postgres, sqlitePath: "", bcryptCost: 4, postgresURL: url))
        let me = try await graph.accounts.signUp(email: "me@bench.io", displayName: "Me", password: "bench-password")
        let other = try await graph.accounts.signUp(email: "other@bench.io", displayName: "Other", password: "bench-password")
        let stranger = try await graph.accounts.signUp(email: "stranger@bench.io", displayName: "Stranger", password: "bench-password")
        _ = try await graph.services(for: graph.caller(token: stranger.token)).conversations.startDirect(with: other.account.id)
        let conversation = try await graph.services(for: graph.caller(token: me.token)).conversations.startDirect(with: other.account.id).id
        _ = try await graph.services(for: graph.caller(token: other.token)).conversations.accept(conversation)
        let words = Self.vocabulary.map { "'\($0)'" }.joined(separator: ",")
        _ = try await cluster.psql(
            """
            INSERT INTO messages (seq, id, conversation_id, position, sender_id, text, sent_at)
            SELECT s.top + g, 'm' || g, '\(conversation.rawValue)', g, CASE WHEN g % 2 = 0 THEN '\(me.account.id.rawValue)' ELSE '\(other.account.id.rawValue)' END,
                   (SELECT string_agg((ARRAY[\(words)])[1 + floor(random() ^ 2 * 4999)::int], ' ') FROM generate_series(1, 12) w WHERE g > 0),
                   (extract(epoch FROM now()) * 1000)::bigint - \(size) + g
            FROM generate_series(1, \(size)) g, (SELECT value AS top FROM store_sequence) s;
            INSERT INTO chat_activity (conversation_id, message_count, last_seq)
                SELECT '\(conversation.rawValue)', \(size), max(seq) FROM messages WHERE conversation_id = '\(conversation.rawValue)'
                ON CONFLICT (conversation_id) DO UPDATE SET message_count = excluded.message_count, last_seq = excluded.last_seq;
            UPDATE store_sequence SET value = (SELECT max(seq) FROM messages);
            ANALYZE;
            """, onDatabaseAt: url)
        return (
            graph.services(for: graph.caller(token: me.token)).search, graph.services(for: graph.caller(token: stranger.token)).search,
            { graph.close() }
        )
    }
}

/// What checking and marking a page of hits costs, by text: hostile ones (4,000 `東` found by
/// `東`, 2,000 `é` by `e`, 2,000 `x` by `x`, 4,000 `東` and one rare word found by it) and an
/// ordinary one; a page of 100 hits from 101 candidates of that text (`SearchRules.verified`),
/// read `runs` times.
struct SearchHitBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search-hits", abstract: "Time to check and mark a page of hits of hostile texts.")
    @Option(help: "Pages of each text.") var runs = 3

    func run() async throws {
        let texts = [
            ("4,000 東 by 東", String(repeating: "東", count: 4_000), "東"),
            ("2,000 é by e", String(repeating: "é ", count: 2_000), "e"),
            ("2,000 x by x", String(repeating: "x ", count: 2_000), "x"),
            ("4,000 東 and zzqq by zzqq", String(repeating: "東", count: 4_000) + " zzqq", "zzqq"),
            ("ordinary", "the engine room at nine, and bring the notes on the " + String(repeating: "difference engine ", count: 10), "notes"),
        ]
        for (name, text, query) in texts {
            let query = try SearchQuery(query)
            let candidates = (0..<101).map { index in
                SearchRules.Candidate(
                    key: Int64(101 - index),
                    message: SearchCorpusMessage(
                        id: MessageID("m\(index)"), conversationID: ConversationID("c"), senderID: UserID("u"), sentAt: .now, text: text,
                        key: Int64(101 - index)), deleted: false)
            }
            var times: [Double] = []
            var found = 0
            for _ in 0..<runs {
                times.append(
                    try await Stats.time {
                        found = try await SearchRules.verified(query, limit: 100, below: .max, by: UserID("u"), budget: .unlimited) { below, count in
                            Array(candidates.filter { $0.key < below }.prefix(count))
                        }.hits.count
                    })
            }
            print(
                "search hits, \(name) (\(text.count) characters, \(found) hits of 101 candidates): a page median \(Stats.format(Stats.median(times) * 1_000, 1)) ms, "
                    + "a hit \(Stats.format(Stats.median(times) * 1_000 / 101, 2)) ms")
        }
    }
}

/// What finding mentions costs a send's text: an ordinary message naming two of a group's 200
/// members, and two hostile ones (4,000 `@`, and 61 runs of `@` and the start of a 64-letter
/// name), each read `runs` times.
struct MentionBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mentions", abstract: "Time to find the mentions of a message's text.")
    @Option(help: "Reads of each text.") var runs = 200

    func run() async throws {
        var names = Dictionary(uniqueKeysWithValues: (1...198).map { (UserID("u-\($0)"), "Member Number\($0)") })
        names[UserID("u-grace")] = "Grace Hopper"
        names[UserID("u-long")] = String(repeating: "a", count: 64)
        let texts = [
            (
                "ordinary",
                "@Grace Hopper and @member number17, the engine room at nine; mail grace@example.com " + String(repeating: "word ", count: 40)
            ),
            ("4,000 @", String(repeating: "@", count: 4_000)),
            ("61 long name starts", String(repeating: "@" + String(repeating: "a", count: 63) + " ", count: 61)),
        ]
        for (name, text) in texts {
            var times: [Double] = []
            for _ in 0..<runs { times.append(await Stats.time { _ = MentionFinder.mentions(in: text, among: names) }) }
            print(
                "mentions, \(name) (\(text.count) characters, 200 members): median \(Stats.format(Stats.median(times) * 1_000_000, 1)) µs, "
                    + "p99 \(Stats.format(Stats.percentile(times, 0.99) * 1_000_000, 1)) µs")
        }
    }
}
