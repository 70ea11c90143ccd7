import Foundation
import Kernel
import PostgresNIO
import PostgresStore
import Search

/// Search's index in PostgreSQL: each message's folded words (`SearchQuery.words`) as a
/// `tsvector` made from them as they are (`array_to_tsvector`: no parser, so no locale decides
/// what a word is), under a GIN index, kept past `search_progress` out of the send's
/// transaction, so a send never waits for it. A search first indexes what is left, so a person
/// finds what they just sent; from an instance's first search on, it also follows the commits
/// it hears of (`IndexFollower`). The service (`PostgresSearchService`) checks each candidate
/// against the message as it is now, so an edit or a deletion the index has not caught up with
/// yet is never shown by its old words.
public final class PostgresSearchIndex: Sendable {
    /// The index's tables.
    public static let migrations = [
        PGDatabase.Migration(feature: "search", version: 1, [
            "CREATE TABLE search_words (seq bigint PRIMARY KEY, words tsvector NOT NULL)",
            "CREATE INDEX search_words_by_word ON search_words USING GIN (words)",
            "CREATE TABLE search_progress (one int PRIMARY KEY CHECK (one = 1), seq bigint NOT NULL)",
            "INSERT INTO search_progress VALUES (1, 0)",
        ]),
    ]

    /// Messages and changes read at once while catching up.
    static let batch = 2_000

    /// The tables it indexes, which its searches read too.
    let source: SearchSchema.Source
    private let follower: IndexFollower

    /// The index of `database`, whose tables `source` names; it follows commits from the first `bringUpToDate` on.
    public init(database: PGDatabase, source: SearchSchema.Source) {
        self.source = source
        follower = IndexFollower(commits: { database.changes() }, catchUp: { try await Self.catchUp(database, source: source) })
    }

    /// Indexes what is left to index, unless another instance or search is at it now, and follows commits from now on.
    public func bringUpToDate() async throws { try await follower.bringUpToDate() }

    /// Indexes the next batch of messages and changes past the progress mark; true when none was
    /// left, or when another instance (or search) is indexing them now.
    static func catchUp(_ database: PGDatabase, source s: SearchSchema.Source) async throws -> Bool {
        try await database.write(ordered: false) { transaction in
            guard let from = try await transaction.query("SELECT seq FROM search_progress FOR UPDATE SKIP LOCKED").first?.decode(Int64.self) else {
                return true
            }
            let rows = try await transaction.query("""
                SELECT e.at, m.\(unescaped: s.key), m.\(unescaped: s.text), m.\(unescaped: s.deleted) FROM (
                    SELECT \(unescaped: s.key) AS at, \(unescaped: s.key) AS message FROM \(unescaped: s.messages) WHERE \(unescaped: s.key) > \(from)
                    UNION ALL
                    SELECT c.\(unescaped: s.changeKey), m.\(unescaped: s.key) FROM \(unescaped: s.changes) c
                    JOIN \(unescaped: s.messages) m ON m.\(unescaped: s.conversation) = c.\(unescaped: s.changeConversation) AND m.\(unescaped: s.id) = c.\(unescaped: s.changeMessage)
                    WHERE c.\(unescaped: s.changeKey) > \(from)
                ) e JOIN \(unescaped: s.messages) m ON m.\(unescaped: s.key) = e.message ORDER BY e.at LIMIT \(batch)
                """)
            guard !rows.isEmpty else { return true }
            // The index is derived, and its mark commits with it: a crash that loses this commit
            // loses the mark too, and the words are written again. So no send waits on its flush.
            try await transaction.query("SET LOCAL synchronous_commit = off")
            var last = from
            // A message and its changes in one batch are one row: each read carries it as it is now.
            var now: [Int64: String?] = [:]
            for row in rows {
                let (at, seq, text, deleted) = try row.decode((Int64, Int64, String, Bool).self)
                last = max(last, at)
                now[seq] = deleted ? String?.none : Set(SearchQuery.words(of: text)).joined(separator: " ")
            }
            let gone = now.filter { $0.value == nil }.map(\.key)
            let kept = now.compactMap { seq, words in words.map { (seq, $0) } }
            let (keys, words) = (kept.map(\.0), kept.map(\.1))
            // At most two statements a batch, whatever its size.
            if !gone.isEmpty { try await transaction.query("DELETE FROM search_words WHERE seq = ANY(\(gone))") }
            try await transaction.query("""
                INSERT INTO search_words (seq, words)
                SELECT seq, array_to_tsvector(array_remove(string_to_array(words, ' '), '')) FROM unnest(\(keys)::bigint[], \(words)::text[]) AS w(seq, words)
                ON CONFLICT (seq) DO UPDATE SET words = excluded.words
                """)
            try await transaction.query("UPDATE search_progress SET seq = greatest(seq, \(last))")
            return rows.count < batch
        }
    }
}
