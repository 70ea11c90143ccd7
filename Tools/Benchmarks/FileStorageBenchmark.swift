import ArgumentParser
import Foundation
import GRDB
import SQLStore

/// Where a shared file's bytes should live on the SQLite backend (issue 40 asks to decide by
/// measurement): in the database file, as chunks of a table written a few at a time in their own
/// transactions, or in a file of their own beside it, named once whole (synced first, or not:
/// the database itself syncs only at its checkpoints). Each is timed storing, reading back and
/// deleting the same file, against `cp` of it to the same disk.
struct FileStorageBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "files", abstract: "Store, read back and delete a file in the SQLite file and beside it, against cp.")
    @Option(help: "The file's size in MiB.") var mebibytes = 25
    @Option(help: "Runs of each; medians are printed.") var runs = 5
    @Option(help: "Bytes of a chunk, in KiB.") var chunkKiB = 256
    @Option(help: "Chunks written in one transaction.") var chunksPerWrite = 16

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("files"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("source"), copy = folder.appendingPathComponent("copy")
        FileManager.default.createFile(atPath: source.path, contents: Data((0..<mebibytes << 20).map { _ in UInt8.random(in: 0...255) }))
        let database = try SQLDatabase(path: folder.appendingPathComponent("bench.sqlite").path, migrations: [])
        try await database.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE file_chunks (file_id TEXT NOT NULL, n INTEGER NOT NULL, bytes BLOB NOT NULL);
                    CREATE UNIQUE INDEX file_chunks_by_file ON file_chunks (file_id, n);
                    CREATE TABLE files (id TEXT PRIMARY KEY, path TEXT)
                    """)
        }
        var figures: [String: [Double]] = [:]
        for run in 0..<runs {
            let id = "f\(run)"
            figures["cp", default: []].append(try await Stats.time { try Self.cp(source, to: copy) })
            try FileManager.default.removeItem(at: copy)
            figures["database: store", default: []].append(try await Stats.time { try await storeInDatabase(source, id: id, database) })
            figures["database: read", default: []].append(try await Stats.time { try await readFromDatabase(id, to: copy, database) })
            try Self.check(copy, against: source)
            figures["database: delete", default: []].append(
                try await Stats.time {
                    try await database.write { db in try db.execute(sql: "DELETE FROM file_chunks WHERE file_id = ?", arguments: [id]) }
                })
            let beside = folder.appendingPathComponent("files/\(id)")
            let unsynced = folder.appendingPathComponent("files/\(id)-unsynced")
            figures["beside, unsynced: store", default: []].append(
                try await Stats.time { try await storeBeside(source, at: unsynced, id: id + "-unsynced", sync: false, database) })
            try FileManager.default.removeItem(at: unsynced)
            figures["beside: store", default: []].append(
                try await Stats.time { try await storeBeside(source, at: beside, id: id, sync: true, database) })
            figures["beside: read", default: []].append(try await Stats.time { try Self.copy(beside, to: copy, chunk: chunkKiB << 10) })
            try Self.check(copy, against: source)
            figures["beside: delete", default: []].append(
                try await Stats.time {
                    try FileManager.default.removeItem(at: beside)
                    try await database.write { db in try db.execute(sql: "DELETE FROM files WHERE id = ?", arguments: [id]) }
                })
        }
        let floor = Stats.median(figures["cp"] ?? [])
        for name in [
            "cp", "database: store", "beside: store", "beside, unsynced: store", "database: read", "beside: read", "database: delete",
            "beside: delete",
        ] {
            let median = Stats.median(figures[name] ?? [])
            print(
                "files \(mebibytes) MiB, \(name): median \(Stats.format(median * 1_000, 1)) ms, "
                    + "\(Stats.format(Double(mebibytes) / median, 0)) MiB/s, \(Stats.format(floor / median, 2)) of cp (\(runs) runs)")
        }
        let sizes = [database.path, database.path + "-wal"].map { (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) ?? 0 }
        print(
            "files: the database file is \(sizes[0] >> 20) MiB and its log \(sizes[1] >> 20) MiB after \(runs) stored and deleted "
                + "(freed pages are kept for reuse, zeroed)")
    }

    /// Reads `source` `chunk` bytes at a time into the chunks' table, `chunksPerWrite` to a
    /// transaction, so that other writers wait for one batch at most, never for the whole file.
    private func storeInDatabase(_ source: URL, id: String, _ database: SQLDatabase) async throws {
        let input = try FileHandle(forReadingFrom: source)
        defer { try? input.close() }
        var n = 0
        while true {
            var read: [Data] = []
            while read.count < chunksPerWrite, let data = try input.read(upToCount: chunkKiB << 10), !data.isEmpty { read.append(data) }
            guard !read.isEmpty else { return }
            let (first, batch) = (n, read)
            try await database.write(notifying: false) { db in
                let insert = try db.cachedStatement(sql: "INSERT INTO file_chunks (file_id, n, bytes) VALUES (?, ?, ?)")
                for (offset, data) in batch.enumerated() { try insert.execute(arguments: [id, first + offset, data]) }
            }
            n += batch.count
        }
    }

    private func readFromDatabase(_ id: String, to destination: URL, _ database: SQLDatabase) async throws {
        FileManager.default.createFile(atPath: destination.path, contents: nil)
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        try await database.pool.read { db in
            let chunks = try Row.fetchCursor(db, sql: "SELECT bytes FROM file_chunks WHERE file_id = ? ORDER BY n", arguments: [id])
            while let row = try chunks.next() { try output.write(contentsOf: row[0] as Data) }
        }
    }

    /// Writes `source` to a file of its own, names it once whole (with `sync`, syncing it before
    /// and its folder after), then records it.
    private func storeBeside(_ source: URL, at path: URL, id: String, sync: Bool, _ database: SQLDatabase) async throws {
        let part = path.appendingPathExtension("part")
        try Self.copy(source, to: part, chunk: chunkKiB << 10, sync: sync)
        guard rename(part.path, path.path) == 0 else { throw POSIXError(.EIO) }
        if sync {
            let folder = open(path.deletingLastPathComponent().path, O_RDONLY)
            defer { close(folder) }
            fsync(folder)
        }
        try await database.write { db in try db.execute(sql: "INSERT INTO files (id, path) VALUES (?, ?)", arguments: [id, path.lastPathComponent]) }
    }

    /// `cp SOURCE DESTINATION`: the floor.
    private static func cp(_ source: URL, to destination: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/cp")
        process.arguments = [source.path, destination.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ValidationError("cp failed") }
    }

    /// Copies `source` to `destination` `chunk` bytes at a time (synced when `sync`).
    private static func copy(_ source: URL, to destination: URL, chunk: Int, sync: Bool = false) throws {
        let input = try FileHandle(forReadingFrom: source)
        defer { try? input.close() }
        FileManager.default.createFile(atPath: destination.path, contents: nil)
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        while let data = try input.read(upToCount: chunk), !data.isEmpty { try output.write(contentsOf: data) }
        if sync { try output.synchronize() }
    }

    private static func check(_ copy: URL, against source: URL) throws {
        guard FileManager.default.contentsEqual(atPath: copy.path, andPath: source.path) else {
            throw ValidationError("the copy read back differs from the file stored")
        }
        try FileManager.default.removeItem(at: copy)
    }
}
