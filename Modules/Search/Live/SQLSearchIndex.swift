import Foundation
import GRDB
import Kernel
import SQLStore
import Search
import Synchronization

/// Keeps Search's index of a SQLite file (`SearchSchema`): it reads the messages and changes
/// past `search_progress` and writes their words, out of the send's transaction, so a send never
/// waits for it. A search first indexes what is left (`bringUpToDate`), so a person finds what
/// they just sent; from a process's first search on, it also follows each commit it hears of,
/// by any process (`IndexFollower`), so later searches find little left. A process that
/// never searches (a one-shot command) never writes the index. What one process has written,
/// the others find done.
///
/// FTS5 (as SQLite 3.40 has it) keeps a dropped row's words in its segments until they are
/// merged, so an edited or deleted message's old words stay in the file after its row is gone
/// (`SearchSchema`'s trigger drops it). `purge()` merges the index into one segment, which
/// leaves them out; the process that made the change purges before it answers, and a keeper
/// of the index after its rounds.
public final class SQLSearchIndex: Sendable {
    /// Messages and changes read at once.
    static let batch = 500
    /// Pages one step of a purge merges at most: each step is a transaction of its own, so a
    /// send waits for one step (tens of milliseconds), never for the whole purge.
    static let purgeStep = 64
    /// Purging takes at most one part in this many of a process's time: its purges spend from a
    /// credit of time that comes back at this share of the time that passes (up to `purgeBurst`),
    /// so however often messages are deleted, merging cannot take the process over.
    static let purgeShare = 10
    /// The most purging time a process may spend at once: small indexes (tens of milliseconds a
    /// merge) are purged at every change; one of a million messages (about 2 s) about every 20 s.
    static let purgeBurst: Duration = .seconds(2)
    /// The longest wait for a purge's credit that `purge()` waits for; past it, it schedules the purge.
    static let purgeWaitedFor: Duration = .seconds(1)

    /// The tables it indexes, which its searches read too.
    let source: SearchSchema.Source
    private let follower: IndexFollower
    private let purger: Purger

    /// The index of `database`, whose tables `source` names; it follows commits from the first
    /// `bringUpToDate` on, and purges (in the background) after each round that left nothing to index.
    public init(database: SQLDatabase, source: SearchSchema.Source) {
        self.source = source
        let purger = Purger(database: database)
        self.purger = purger
        follower = IndexFollower(
            commits: { database.changes.subscribe() },
            catchUp: {
                let done = try await Self.catchUp(database, source: source)
                // A search does not wait for a purge: the change that wanted it purged already, or a purge is due later.
                if done { Task { try? await purger.purge() } }
                return done
            })
    }

    /// Indexes what is left to index, and follows commits from now on.
    public func bringUpToDate() async throws { try await follower.bringUpToDate() }

    /// Leaves the words of messages edited or deleted since the last purge out of the file, when
    /// the store wants a purge (`SearchSchema`'s trigger counts them): now if this process has
    /// purging time left (`purgeShare`, `purgeBurst`) or will within `purgeWaitedFor`, else in
    /// the background when it has.
    public func purge() async throws { try await purger.purge() }

    /// A process's purges of the index, spaced out by their cost.
    private final class Purger: Sendable {
        private let database: SQLDatabase
        private let state = Mutex(State())

        /// The purging time this process may spend now (negative: owed), as of `counted`,
        /// whether a purge waits for its credit, and the purge merging now, if any.
        private struct State {
            var credit = SQLSearchIndex.purgeBurst
            var counted = ContinuousClock.now
            var scheduled = false
            var merging: Task<Void, any Error>?

            /// The credit now, with what came back since it was last counted.
            mutating func refilled() -> Duration {
                let now = ContinuousClock.now
                credit = min(SQLSearchIndex.purgeBurst, credit + counted.duration(to: now) / SQLSearchIndex.purgeShare)
                counted = now
                return credit
            }
        }

        init(database: SQLDatabase) { self.database = database }

        func purge() async throws {
            // Nothing wanted (no indexed message's text changed since the last purge): no wait, no merge.
            guard try await wanted() != nil else { return }
            let owed = state.withLock { $0.refilled() }
            guard owed < .zero else { return try await purgeNow() }
            let wait = (.zero - owed) * SQLSearchIndex.purgeShare
            // A short wait (a merge a moment ago, of a small index) is waited for: the change is answered purged.
            if wait <= SQLSearchIndex.purgeWaitedFor {
                try await Task.sleep(for: wait)
                return try await purgeNow()
            }
            guard
                state.withLock({ state in
                    defer { state.scheduled = true }
                    return !state.scheduled
                })
            else { return }
            Task { [weak self] in
                try? await Task.sleep(for: wait)
                self?.state.withLock { $0.scheduled = false }
                try? await self?.purge()
            }
        }

        /// The purges the store wants (`purge_wanted`) when more than are done, else `nil`.
        private func wanted() async throws -> Int64? {
            try await database.read { db in
                try Row.fetchOne(db, sql: "SELECT purge_wanted, purged FROM search_progress").flatMap { row -> Int64? in
                    let (wanted, purged): (Int64, Int64) = (row[0], row[1])
                    return wanted > purged ? wanted : nil
                }
            }
        }

        /// Merges the index into one segment, after the purge merging now if any (one at a time
        /// in a process: two would merge the same segments twice and spend the credit twice).
        private func purgeNow() async throws {
            let merge = state.withLock { state in
                let previous = state.merging
                let merge = Task { [self] in
                    _ = await previous?.result
                    try await mergeWanted()
                }
                state.merging = merge
                return merge
            }
            try await merge.value
        }

        /// Merges the index into one segment, a step (`purgeStep` pages) a transaction, when
        /// purges are wanted; then marks those it saw wanted as done.
        private func mergeWanted() async throws {
            guard let wanted = try await wanted() else { return }
            let started = ContinuousClock.now
            var merged = true
            while merged {
                merged = try await database.write(notifying: false) { db in
                    let before = db.totalChangesCount
                    try db.execute(sql: "INSERT INTO search_index (search_index, rank) VALUES ('merge', ?)", arguments: [-SQLSearchIndex.purgeStep])
                    return db.totalChangesCount - before > 1
                }
            }
            try await database.write(notifying: false) { db in
                try db.execute(sql: "UPDATE search_progress SET purged = max(purged, ?)", arguments: [wanted])
            }
            let took = started.duration(to: .now)
            state.withLock { state in
                _ = state.refilled()
                state.credit -= took
            }
        }
    }

    /// Indexes the next batch past the progress mark, its words folded before the write; true
    /// when none was left. A batch another process indexed meanwhile is not written again.
    static func catchUp(_ database: SQLDatabase, source s: SearchSchema.Source) async throws -> Bool {
        let (from, rows) = try await database.read { db in
            let from = try Int64.fetchOne(db, sql: "SELECT seq FROM search_progress") ?? 0
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT e.at, m.\(s.key), m.\(s.text), m.\(s.deleted), m.\(s.conversation), m.\(s.attachments) FROM (
                        SELECT \(s.key) AS at, \(s.key) AS message FROM \(s.messages) WHERE \(s.key) > ?1
                        UNION ALL
                        SELECT c.\(s.changeKey), m.\(s.key) FROM \(s.changes) c
                        JOIN \(s.messages) m ON m.\(s.conversation) = c.\(s.changeConversation) AND m.\(s.id) = c.\(s.changeMessage)
                        WHERE c.\(s.changeKey) > ?1
                    ) e JOIN \(s.messages) m ON m.\(s.key) = e.message ORDER BY e.at LIMIT ?2
                    """, arguments: [from, batch])
            return (
                from,
                rows.map { row -> (at: Int64, key: Int64, words: String?) in
                    let files = SearchSchema.Source.fileNames(row[5])
                    return (
                        row[0], row[1],
                        (row[3] as Bool) ? nil : SearchQuery.lexemes(of: row[2], fileNames: files, in: ConversationID(row[4])).joined(separator: " ")
                    )
                }
            )
        }
        guard let last = rows.last?.at else { return true }
        // A message and its changes in one batch are one write: each read carries it as it is now.
        var newest: [Int64: (changed: Bool, words: String?)] = [:]
        for row in rows { newest[row.key] = (newest[row.key]?.changed == true || row.at != row.key, row.words) }
        let writes = newest.sorted { $0.key < $1.key }
        try await database.write(notifying: false) { db in
            guard try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM search_progress")) == from else { return }
            var dropped = false
            for (key, message) in writes {
                // A message new past the mark is not in the index yet: only a changed one has words to drop (the
                // trigger dropped them already, unless this round had read its text before the change).
                if message.changed {
                    try db.cachedStatement(sql: "DELETE FROM search_index WHERE rowid = ?").execute(arguments: [key])
                    dropped = dropped || db.changesCount > 0
                }
                if let words = message.words {
                    try db.cachedStatement(sql: "INSERT INTO search_index (rowid, words) VALUES (?, ?)").execute(arguments: [key, words])
                }
            }
            try db.cachedStatement(sql: "UPDATE search_progress SET seq = ?, purge_wanted = purge_wanted + ?").execute(arguments: [
                last, dropped ? 1 : 0,
            ])
        }
        return rows.count < batch
    }
}
