import Foundation
import GRDB
import Kernel
import Search
import SQLStore

/// Keeps Search's index of a SQLite file (`SearchSchema`): it reads the messages and changes
/// past `search_progress` and writes their words, out of the send's transaction, so a send never
/// waits for it. A search first indexes what is left (`bringUpToDate`), so a person finds what
/// they just sent; from a process's first search on, it also follows each commit it hears of,
/// by any process (`IndexFollower`), so later searches find little left. A process that
/// never searches (a one-shot command) never writes the index. What one process has written,
/// the others find done.
public final class SQLSearchIndex: Sendable {
    /// Messages and changes read at once.
    static let batch = 500

    /// The tables it indexes, which its searches read too.
    let source: SearchSchema.Source
    private let follower: IndexFollower

    /// The index of `database`, whose tables `source` names; it follows commits from the first `bringUpToDate` on.
    public init(database: SQLDatabase, source: SearchSchema.Source) {
        self.source = source
        follower = IndexFollower(commits: { database.changes.subscribe() }, catchUp: { try await Self.catchUp(database, source: source) })
    }

    /// Indexes what is left to index, and follows commits from now on.
    public func bringUpToDate() async throws { try await follower.bringUpToDate() }

    /// Indexes the next batch past the progress mark, its words folded before the write; true
    /// when none was left. A batch another process indexed meanwhile is not written again.
    static func catchUp(_ database: SQLDatabase, source s: SearchSchema.Source) async throws -> Bool {
        let (from, rows) = try await database.read { db in
            let from = try Int64.fetchOne(db, sql: "SELECT seq FROM search_progress") ?? 0
            let rows = try Row.fetchAll(db, sql: """
                SELECT e.at, m.\(s.key), m.\(s.text), m.\(s.deleted) FROM (
                    SELECT \(s.key) AS at, \(s.key) AS message FROM \(s.messages) WHERE \(s.key) > ?1
                    UNION ALL
                    SELECT c.\(s.changeKey), m.\(s.key) FROM \(s.changes) c
                    JOIN \(s.messages) m ON m.\(s.conversation) = c.\(s.changeConversation) AND m.\(s.id) = c.\(s.changeMessage)
                    WHERE c.\(s.changeKey) > ?1
                ) e JOIN \(s.messages) m ON m.\(s.key) = e.message ORDER BY e.at LIMIT ?2
                """, arguments: [from, batch])
            return (from, rows.map { row -> (at: Int64, key: Int64, words: String?) in
                (row[0], row[1], (row[3] as Bool) ? nil : SearchQuery.lexemes(of: row[2]).joined(separator: " "))
            })
        }
        guard let last = rows.last?.at else { return true }
        // A message and its changes in one batch are one write: each read carries it as it is now.
        var newest: [Int64: (changed: Bool, words: String?)] = [:]
        for row in rows { newest[row.key] = (newest[row.key]?.changed == true || row.at != row.key, row.words) }
        let writes = newest.sorted { $0.key < $1.key }
        try await database.write(notifying: false) { db in
            guard try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM search_progress")) == from else { return }
            for (key, message) in writes {
                // A message new past the mark is not in the index yet: only a changed one has words to drop.
                if message.changed { try db.cachedStatement(sql: "DELETE FROM search_index WHERE rowid = ?").execute(arguments: [key]) }
                if let words = message.words {
                    try db.cachedStatement(sql: "INSERT INTO search_index (rowid, words) VALUES (?, ?)").execute(arguments: [key, words])
                }
            }
            try db.cachedStatement(sql: "UPDATE search_progress SET seq = ?").execute(arguments: [last])
        }
        return rows.count < batch
    }
}
