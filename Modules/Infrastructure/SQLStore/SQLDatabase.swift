import Foundation
import GRDB
import GRDBSQLite
import Kernel

/// The SQLite database file every `sqlite` service shares: opened once per process as a GRDB
/// `DatabasePool` (WAL), checked, migrated, and watched for changes made by any process.
public final class SQLDatabase: Sendable {
    /// The file.
    public let path: String
    /// Connections: one writer, several concurrent readers.
    public let pool: DatabasePool
    /// Ticks when any process commits to the file.
    public let changes: ChangeMonitor

    /// The writes whose size a caller controls, taking turns (`takingTurns`).
    private let heavyWrites = OneAtATime()

    /// How long a connection waits for another's lock before SQLite says the database is busy.
    private static let busyTimeout: TimeInterval = 10
    /// Pages of write-ahead log after which a commit copies them into the database file.
    private static let checkpointPages = 8_000

    /// Opens (creating if needed) and migrates the database at `path`; other processes' commits
    /// to it are noticed as `watch` says.
    /// - Throws: `AppError(.unavailable)` with a one-line reason naming the path when it is a
    ///   folder, not a SQLite file, corrupt, in a read-only folder, or written by a newer version.
    ///   In those cases the file is not modified.
    public init(path: String, migrations: [SchemaMigration], watch: ChangeMonitor.Watch = .fileEvents) throws {
        self.path = path
        try FileChecks.prepare(path)
        var configuration = GRDB.Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.prepareDatabase { db in
            // A checkpoint every 8,000 pages (32 MiB of log) rather than SQLite's 1,000: pages
            // written by every commit (sequences, indexes, counters) are copied back once per
            // checkpoint, so fewer checkpoints copy much less.
            // Deleted content is overwritten with zeros (`secure_delete`) whatever the SQLite library's build defaults
            // to: a deleted message's text leaves the file's bytes, not only its tables.
            try db.execute(
                sql: """
                    PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA wal_autocheckpoint = \(Self.checkpointPages);
                    PRAGMA secure_delete = ON
                    """)
        }
        let migrator = Self.migrator(migrations)
        do {
            // One process (and thread) at a time checks, creates and migrates the file: without
            // it, processes starting together on a new file race to migrate it, and a read-only
            // probe can see a half-created file. The lock is on a file of its own: releasing it
            // closes its descriptor, and closing one of the database file would drop SQLite's
            // locks on it (then another program closing the file deletes the log under us).
            let (openLock, madeLockFile) = try Self.lockForOpening(path)
            defer { openLock.release() }
            do {
                try Self.refuseForeignOrNewer(path, migrator: migrator)
            } catch {
                // A file that is not ours gets no lock file of ours beside it either.
                if madeLockFile { unlink(Self.lockPath(path)) }
                throw error
            }
            pool = try DatabasePool(path: path, configuration: configuration)
            try migrator.migrate(pool)
            changes = try ChangeMonitor(path: path, watch: watch)
        } catch let error as AppError {
            throw error
        } catch {
            throw SQLErrors.openFailure(error, path: path)
        }
    }

    /// Runs `body` in an IMMEDIATE transaction, retrying while another process holds the write
    /// lock past the busy timeout, then tells local watchers at once (unless `notifying` is
    /// false: bookkeeping no reader shows, such as a session's last use).
    public func write<T: Sendable>(notifying: Bool = true, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let result = try await SQLErrors.retryingBusy {
            try await self.pool.writeWithoutTransaction { db in try Self.immediately(db, body) }
        }
        if notifying { changes.notifyLocalChange() }
        return result
    }

    /// Runs `work`, writes whose size a caller controls (a group of 1,000 people, in parts; a
    /// change of a message with 1,900 reactions),
    /// after such work that came before it has ended: however many arrive together, a send waits
    /// behind one part of one of them at most.
    public func takingTurns<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await heavyWrites.run(work)
    }

    /// `write`, on the calling thread, trying once: for a caller that would rather block its
    /// thread for a commit than wait for two hops to the writer's queue and back. `nil`, with
    /// nothing written, when another process holds the write lock: the caller goes the retrying
    /// way (`write`).
    public func writeNow<T>(notifying: Bool = true, _ body: (Database) throws -> T) throws -> T? {
        let result: T
        do {
            result = try SQLErrors.explained {
                try pool.writeWithoutTransaction { db in
                    // Trying once is not waiting out the busy timeout on the caller's thread either.
                    sqlite3_busy_timeout(db.sqliteConnection, 0)
                    defer { sqlite3_busy_timeout(db.sqliteConnection, Int32(Self.busyTimeout * 1_000)) }
                    return try Self.immediately(db, body)
                }
            }
        } catch  where SQLErrors.isBusy(error) {
            return nil
        }
        if notifying { changes.notifyLocalChange() }
        return result
    }

    /// `body` in an IMMEDIATE transaction that commits when it returns.
    private static func immediately<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        var value: T?
        try db.inTransaction(.immediate) {
            value = try body(db)
            return .commit
        }
        guard let value else { throw AppError(.internal, "a transaction committed without running its body") }
        return value
    }

    /// Runs `body` on a reader connection (a consistent snapshot).
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await SQLErrors.retryingBusy { try await self.pool.read(body) }
    }

    /// The file whose lock processes take in turn to open `path`.
    private static func lockPath(_ path: String) -> String { path + ".lock" }

    /// The lock processes take in turn to open `path`, and whether its file was made just now.
    private static func lockForOpening(_ path: String) throws -> (FileLock, made: Bool) {
        let lockPath = lockPath(path)
        let made = access(lockPath, F_OK) != 0
        do {
            return (try FileLock(path: lockPath, creating: true), made)
        } catch {
            throw AppError(
                .unavailable,
                error.opening
                    ? "database \(path) cannot be opened: its lock file \(lockPath) \(error.reason)"
                    : "database \(path) cannot be locked for opening: \(error.reason)")
        }
    }

    private static func migrator(_ migrations: [SchemaMigration]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // The store's own tables first: features' migrations may build on them.
        for migration in SQLChangeLog.migrations + migrations.sorted(by: { ($0.feature, $0.version) < ($1.feature, $1.version) }) {
            migrator.registerMigration(migration.identifier, migrate: migration.apply)
        }
        return migrator
    }

    /// Looks at an existing file through a read-only connection, so that a file this version
    /// must not open (not SQLite, another program's, newer schema, corrupt) is refused before
    /// anything could write to it. SQLite reads the header, not this process: SQLite keeps a
    /// descriptor open while the process holds locks on the file, a plain read would close it.
    private static func refuseForeignOrNewer(_ path: String, migrator: DatabaseMigrator) throws {
        guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size > 0 else { return }
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(Self.busyTimeout)
        do {
            let probe = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? probe.close() }
            try refuseForeignOrNewer(probe, path: path, migrator: migrator)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw FileChecks.failure(path, "is not a SQLite database")
        }
    }

    private static func refuseForeignOrNewer(_ probe: DatabaseQueue, path: String, migrator: DatabaseMigrator) throws {
        let ours = Set(migrator.migrations)
        try probe.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            // Another process may have created the file and not migrated it yet: no tables at all.
            guard !tables.isEmpty else { return }
            let applied = tables.contains("grdb_migrations") ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
            // Opening would switch another program's file to WAL: refuse it before anything is written.
            guard !ours.isDisjoint(with: applied) else { throw FileChecks.failure(path, "belongs to another program (it has no MessageAI tables)") }
            if try migrator.hasBeenSuperseded(db) {
                throw AppError(.unavailable, "database \(path) was written by a newer version of MessageAI; upgrade messageai to open it")
            }
        }
    }

}
