import Foundation
import GRDB
import Kernel
import SQLStore
import Testing

@Suite("SQLite database file", .timeLimit(.minutes(1)))
struct SQLDatabaseTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-sqlite-\(UUID().uuidString)")
    let migrations = [
        SchemaMigration(feature: "test", version: 1, sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
    ]

    init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func expectRefusal(_ path: String, mentioning reason: String) {
        do {
            _ = try SQLDatabase(path: path, migrations: migrations)
            Issue.record("opened \(path)")
        } catch let error as AppError {
            #expect(error.kind == .unavailable)
            #expect(error.message.contains(path) && error.message.contains(reason), "\(error.message)")
            #expect(!error.message.contains("\n"))
        } catch {
            Issue.record("not an AppError: \(error)")
        }
    }

    @Test("a new file is created private (0600) in a folder made for it")
    func creates() throws {
        let file = path("new/sub/data.sqlite")
        _ = try SQLDatabase(path: file, migrations: migrations)
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
    }

    @Test("a directory is refused")
    func directory() {
        expectRefusal(folder.path, mentioning: "is a directory")
    }

    @Test("a file that is not SQLite is refused and left untouched")
    func notSQLite() throws {
        let file = path("notes.txt")
        let content = Data("my precious notes\n".utf8)
        try content.write(to: URL(fileURLWithPath: file))
        expectRefusal(file, mentioning: "is not a SQLite database")
        #expect(FileManager.default.contents(atPath: file) == content)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.txt"], "nothing of ours beside it")
    }

    @Test("a corrupt database is refused and left untouched")
    func corrupt() throws {
        let file = path("corrupt.sqlite")
        var content = Data("SQLite format 3\0".utf8)
        content.append(Data(repeating: 0xA5, count: 4_080))
        try content.write(to: URL(fileURLWithPath: file))
        expectRefusal(file, mentioning: "corrupt")
        #expect(FileManager.default.contents(atPath: file) == content)
    }

    @Test("a folder that cannot be written is refused")
    func readOnlyFolder() {
        expectRefusal("/proc/messageai-test.sqlite", mentioning: "/proc/messageai-test.sqlite")
    }

    @Test("a database from a newer schema is refused and not rewritten")
    func newerSchema() throws {
        let file = path("newer.sqlite")
        do {
            let database = try SQLDatabase(path: file, migrations: migrations)
            try database.pool.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('test-2')") }
            try database.pool.close()
        }
        let before = FileManager.default.contents(atPath: file)
        expectRefusal(file, mentioning: "newer version")
        #expect(FileManager.default.contents(atPath: file) == before)
    }

    @Test("several connections opening a new file at once all succeed, and migrate it once")
    func concurrentFirstOpen() async throws {
        let many = migrations + (2...6).map { SchemaMigration(feature: "test", version: $0, sql: "CREATE TABLE t\($0) (x)") }
        for round in 1...5 {
            let file = path("race-\(round).sqlite")
            // Threads of their own, as separate processes would be, started together.
            let failures = await withTaskGroup(of: String?.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        await withCheckedContinuation { done in
                            Thread {
                                do {
                                    _ = try SQLDatabase(path: file, migrations: many)
                                    done.resume(returning: nil)
                                } catch {
                                    done.resume(returning: "\(error)")
                                }
                            }.start()
                        }
                    }
                }
                return await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
            }
            #expect(failures == [], "round \(round)")
            let database = try SQLDatabase(path: file, migrations: many)
            let applied = try await database.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
            // The store's own two migrations, then the six given.
            #expect(applied.count == 8 && applied.prefix(2) == ["store-1", "store-2"])
        }
    }

    @Test(
        "each commit through one connection ticks the change monitor of another, watching the file or polling it",
        arguments: [ChangeMonitor.Watch.fileEvents, .polling])
    func crossConnectionTicks(_ watch: ChangeMonitor.Watch) async throws {
        let file = path("ticks.sqlite")
        let writer = try SQLDatabase(path: file, migrations: migrations)
        let watcher = try SQLDatabase(path: file, migrations: migrations, watch: watch)
        var ticks = watcher.changes.subscribe().makeAsyncIterator()
        // Twice: the monitor's first look, at once, could find the first commit without a wake.
        for expected in 1...2 {
            try await writer.write { db in try db.execute(sql: "INSERT INTO notes (text) VALUES ('hi')") }
            #expect(await ticks.next() != nil)
            let count = try await watcher.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM notes") }
            #expect(count == expected)
        }
    }

    @Test("a write tried once gives up at once on a database another connection is writing, and keeps its busy timeout after")
    func writeNowWhileLocked() async throws {
        let file = path("locked.sqlite")
        let database = try SQLDatabase(path: file, migrations: migrations)
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true  // the lock is held across accesses
        let holder = try DatabaseQueue(path: file, configuration: configuration)
        try await holder.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
        let started = ContinuousClock.now
        let tried: Void? = try database.writeNow { db in try db.execute(sql: "INSERT INTO notes (text) VALUES ('now')") }
        // The busy timeout is 10 s: giving up well before it means it was not waited out.
        #expect(tried == nil && ContinuousClock.now - started < .seconds(5))
        try await holder.writeWithoutTransaction { try $0.execute(sql: "COMMIT") }
        let timeout = try await database.write { db in try Int.fetchOne(db, sql: "PRAGMA busy_timeout") }
        #expect(timeout == 10_000)
        #expect(try database.writeNow { db in try db.execute(sql: "INSERT INTO notes (text) VALUES ('free')") } != nil)
        let texts = try await database.read { db in try String.fetchAll(db, sql: "SELECT text FROM notes") }
        #expect(texts == ["free"])
    }

    @Test("a rewriting step rewrites each row, and leaves a row whose new value is taken")
    func rewritingStep() async throws {
        let file = path("rewrite.sqlite")
        let table = SchemaMigration(feature: "test", version: 1, sql: "CREATE TABLE people (email TEXT NOT NULL UNIQUE)")
        let seeded = try SQLDatabase(path: file, migrations: [table])
        try await seeded.write { db in
            for email in ["A@x.io", "b@x.io", "C@x.io", "c@x.io"] { try db.execute(sql: "INSERT INTO people VALUES (?)", arguments: [email]) }
        }
        let rewritten = try SQLDatabase(
            path: file, migrations: [table, .rewriting(feature: "test", version: 2, table: "people", column: "email") { $0.lowercased() }])
        let emails = try await rewritten.read { db in try String.fetchAll(db, sql: "SELECT email FROM people ORDER BY email") }
        #expect(emails == ["C@x.io", "a@x.io", "b@x.io", "c@x.io"])
    }

    @Test(
        "id lists reach SQL exactly, whether or not they need escaping",
        arguments: [
            ["plain-15-chars0", "a@b.c"],
            ["quote\"d", "back\\slash", "new\nline", "tab\t", "emoji 🦋", "rtl שלום", "e\u{301}"],
            [],
        ])
    func idLists(_ raw: [String]) async throws {
        let database = try SQLDatabase(path: path("ids.sqlite"), migrations: migrations)
        let json = try JSONIDs.encode(raw.map(UserID.init(rawValue:)))
        let values = try await database.read { db in try String.fetchAll(db, sql: "SELECT value FROM json_each(?)", arguments: [json]) }
        #expect(values == raw)
    }
}
