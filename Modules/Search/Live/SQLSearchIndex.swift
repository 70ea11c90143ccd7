import Foundation
import GRDB
import Kernel
import Search
import SQLStore
import Synchronization

/// Keeps Search's index of a SQLite file (`SearchSchema`): it reads the messages and changes
/// past `search_progress` and writes their words, out of the send's transaction, so a send never
/// waits for it. A search first indexes what is left (`bringUpToDate`), so a person finds what
/// they just sent; from a process's first search on, it also follows each commit it hears of,
/// by any process (gathered for `gather`), so later searches find little left. A process that
/// never searches (a one-shot command) never writes the index. What one process has written,
/// the others find done.
public final class SQLSearchIndex: Sendable {
    /// Messages and changes read at once.
    static let batch = 2_000
    /// How long the follower lets commits gather before it indexes them: one transaction for a
    /// burst of sends, not one each (a search does not wait for it: it indexes what is left first).
    static let gather: Duration = .milliseconds(250)

    private let database: SQLDatabase
    /// The tables it indexes, which its searches read too.
    let source: SearchSchema.Source
    private let follower = Mutex<Task<Void, Never>?>(nil)

    /// The index of `database`, whose tables `source` names; it follows commits from the first `bringUpToDate` on.
    public init(database: SQLDatabase, source: SearchSchema.Source) {
        self.database = database
        self.source = source
    }

    deinit { follower.withLock { $0?.cancel() } }

    /// Indexes what is left to index, and follows commits from now on.
    public func bringUpToDate() async throws {
        follower.withLock { task in
            guard task == nil else { return }
            let (database, source) = (database, source)
            task = Task {
                var ticks = database.changes.subscribe().makeAsyncIterator()
                while await ticks.next() != nil, !Task.isCancelled {
                    try? await Task.sleep(for: Self.gather)
                    // A failed round (the file busy) is tried again at the next tick, at least once a second.
                    try? await Self.bringUpToDate(database, source: source)
                }
            }
        }
        try await Self.bringUpToDate(database, source: source)
    }

    private static func bringUpToDate(_ database: SQLDatabase, source: SearchSchema.Source) async throws {
        while try await !catchUp(database, source: source) {}
    }

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
                (row[0], row[1], (row[3] as Bool) ? nil : SearchQuery.words(of: row[2]).joined(separator: " "))
            })
        }
        guard let last = rows.last?.at else { return true }
        try await database.write(notifying: false) { db in
            guard try Int64.fetchOne(db, sql: "SELECT seq FROM search_progress") == from else { return }
            for row in rows {
                try db.execute(sql: "DELETE FROM search_index WHERE rowid = ?", arguments: [row.key])
                if let words = row.words { try db.execute(sql: "INSERT INTO search_index (rowid, words) VALUES (?, ?)", arguments: [row.key, words]) }
            }
            try db.execute(sql: "UPDATE search_progress SET seq = ?", arguments: [last])
        }
        return rows.count < batch
    }
}
