import Foundation
import Kernel
import SQLStore
import TestSupport
import Testing

/// Other programs opening the database file while MessageAI has it open: the `sqlite3` shell,
/// Python's `sqlite3` module, a `.backup`. Each one, closing the file, believes it is its last
/// user unless this process still holds SQLite's locks on it, and then deletes the write-ahead
/// log under it: later commits would go to a deleted file, unseen and lost.
@Suite("Other programs opening the database file", .timeLimit(.minutes(1)))
struct ForeignProgramTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-foreign-\(UUID().uuidString)")
    let migrations = [SchemaMigration(feature: "test", version: 1, sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")]

    init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }

    @Test(
        "commits made after another program opened and closed the file are seen by a new reader, in the file's own log",
        arguments: ForeignProgram.all)
    func commitsAfterForeignClose(_ program: ForeignProgram) async throws {
        let file = folder.appendingPathComponent("\(program.name).sqlite").path
        let database = try SQLDatabase(path: file, migrations: migrations)
        // A second open in the same process, as a CLI or a test that opens its container twice does.
        let again = try SQLDatabase(path: file, migrations: migrations)
        try await database.write { db in try db.execute(sql: "INSERT INTO notes (text) VALUES ('before')") }
        let run = try await program.run(on: file, in: folder)
        #expect(run.status == 0, "\(program.name): \(run.errors)")
        try await database.write { db in try db.execute(sql: "INSERT INTO notes (text) VALUES ('after')") }
        try await again.write { db in try db.execute(sql: "INSERT INTO notes (text) VALUES ('again')") }
        #expect(try deletedFilesOpen(under: file) == [], "this process writes to files another program deleted")
        let counted = try await ForeignProgram.query("SELECT count(*) FROM notes", on: file)
        #expect(counted.output == "3", "a new reader sees \(counted.output) of 3 committed rows: \(counted.errors)")
    }

    /// The files of this process's open descriptors under `path` (the database, its log, its
    /// shared memory) that have been deleted.
    private func deletedFilesOpen(under path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { descriptor in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)") else { return nil }
            return target.hasPrefix(path) && target.hasSuffix("(deleted)") ? target : nil
        }
    }
}
