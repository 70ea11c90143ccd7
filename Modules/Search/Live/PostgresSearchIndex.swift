import Foundation
import Kernel
import Logging
import PostgresNIO
import PostgresStore
import Search

/// Search's index in PostgreSQL: each message's folded words and its conversation
/// (`SearchQuery.lexemes(of:in:)`) as a `tsvector` made from them as they are (`array_to_tsvector`: no parser, so no locale decides
/// what a word is), under a GIN index, kept past `search_progress` out of the send's
/// transaction, so a send never waits for it. A search first indexes what is left, so a person
/// finds what they just sent; from an instance's first search on, it also follows the commits
/// it hears of (`IndexFollower`). The service (`PostgresSearchStore`) checks each candidate
/// against the message as it is now, so an edit or a deletion the index has not caught up with
/// yet is never shown by its old words.
public final class PostgresSearchIndex: Sendable {
    /// The index's tables.
    public static let migrations = [
        PGDatabase.Migration(
            feature: "search", version: 1,
            [
                "CREATE TABLE search_words (seq bigint PRIMARY KEY, words tsvector NOT NULL)",
                "CREATE INDEX search_words_by_word ON search_words USING GIN (words)",
                "CREATE TABLE search_progress (one int PRIMARY KEY CHECK (one = 1), seq bigint NOT NULL)",
                "INSERT INTO search_progress VALUES (1, 0)",
            ]),
        // Each message's conversation joins its words: the index is emptied, and the first search
        // indexes everything again.
        PGDatabase.Migration(feature: "search", version: 2, ["TRUNCATE search_words", "UPDATE search_progress SET seq = 0"]),
    ]

    /// Messages and changes read at once while catching up.
    static let batch = 2_000

    /// The tables it indexes, which its searches read too.
    let source: SearchSchema.Source
    private let follower: IndexFollower

    /// The index of `database`, whose tables `source` names; it follows commits from the first
    /// `bringUpToDate` on, and logs to `logger` each message whose words PostgreSQL refuses.
    public init(database: PGDatabase, source: SearchSchema.Source, logger: Logger) {
        self.source = source
        follower = IndexFollower(commits: { database.changes() }, catchUp: { try await Self.catchUp(database, source: source, logger: logger) })
    }

    /// Indexes what is left to index, unless another instance or search is at it now, and follows commits from now on.
    public func bringUpToDate() async throws { try await follower.bringUpToDate() }

    /// Indexes the next batch of messages and changes past the progress mark; true when none was
    /// left, or when another instance (or search) is indexing them now.
    static func catchUp(_ database: PGDatabase, source s: SearchSchema.Source, logger: Logger) async throws -> Bool {
        try await database.write(ordered: false) { transaction in
            guard let from = try await transaction.query("SELECT seq FROM search_progress FOR UPDATE SKIP LOCKED").first?.decode(Int64.self) else {
                return true
            }
            let rows = try await transaction.query(
                """
                SELECT e.at, m.\(unescaped: s.key), m.\(unescaped: s.text), m.\(unescaped: s.deleted), m.\(unescaped: s.conversation),
                       m.\(unescaped: s.attachments) FROM (
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
                let (at, seq, text, deleted, conversation, files) = try row.decode((Int64, Int64, String, Bool, String, String?).self)
                last = max(last, at)
                let words = SearchQuery.lexemes(of: text, fileNames: SearchSchema.Source.fileNames(files), in: ConversationID(conversation))
                now[seq] = deleted ? String?.none : Set(words).joined(separator: " ")
            }
            let gone = now.filter { $0.value == nil }.map(\.key)
            // A few statements a batch, whatever its size.
            if !gone.isEmpty { try await transaction.query("DELETE FROM search_words WHERE seq = ANY(\(gone))") }
            try await write(now.compactMap { seq, words in words.map { (key: seq, words: $0) } }, in: transaction, logger: logger)
            try await transaction.query("UPDATE search_progress SET seq = greatest(seq, \(last))")
            return rows.count < batch
        }
    }

    /// Writes the words of `messages` (each key's, joined by spaces) in one statement; should
    /// PostgreSQL refuse it, one message at a time, leaving out each message it refuses (logged at
    /// error level by its key, never its text), so that no message can stop the index.
    /// - Throws: what fails other than PostgreSQL refusing a message (`PGDatabase.refusedStatement`): the connection, the server.
    static func write(_ messages: [(key: Int64, words: String)], in transaction: PGDatabase.Transaction, logger: Logger) async throws {
        func insert(_ messages: [(key: Int64, words: String)]) async throws {
            // A savepoint, so that a refusal leaves the transaction (and its hold on the mark) usable.
            try await transaction.query("SAVEPOINT words")
            do {
                try await transaction.query(
                    """
                    INSERT INTO search_words (seq, words)
                    SELECT seq, array_to_tsvector(array_remove(string_to_array(words, ' '), ''))
                    FROM unnest(\(messages.map(\.key))::bigint[], \(messages.map(\.words))::text[]) AS w(seq, words)
                    ON CONFLICT (seq) DO UPDATE SET words = excluded.words
                    """)
            } catch {
                try await transaction.query("ROLLBACK TO SAVEPOINT words")
                throw error
            }
            try await transaction.query("RELEASE SAVEPOINT words")
        }
        guard !messages.isEmpty else { return }
        do {
            try await insert(messages)
        } catch let error where PGDatabase.refusedStatement(error) {
            for message in messages {
                do {
                    try await insert([message])
                } catch let error as PSQLError where PGDatabase.refusedStatement(error) {
                    logger.error(
                        "search index: PostgreSQL refused the words of a message, left out of the index",
                        metadata: ["key": "\(message.key)", "state": "\(error.serverInfo?[.sqlState] ?? "")"])
                }
            }
        }
    }
}
