import Files
import Foundation
import GRDB
import Kernel
import SQLStore

/// Files in a SQLite file: their rows in `files`, their bytes in files of their own beside the
/// database, in `<database>.files/` (ADR 36): written to `ID.part`, renamed to `ID` once whole,
/// then recorded. A reader of the database alone (the `sqlite3` shell, a backup) sees the rows,
/// never the bytes.
public struct SQLFilesStore: FilesStore {
    /// Files' migrations, oldest first.
    public static let migrations = [
        SchemaMigration(
            feature: "files", version: 1,
            sql: """
                CREATE TABLE files (
                    id TEXT PRIMARY KEY,
                    conversation_id TEXT NOT NULL,
                    message_id TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    owner_id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    media_type TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    sha256 TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    confirmed INTEGER NOT NULL DEFAULT 0,
                    UNIQUE (conversation_id, message_id, owner_id, position)
                ) WITHOUT ROWID;
                CREATE INDEX files_by_conversation ON files(conversation_id, created_at, id);
                CREATE INDEX files_by_owner ON files(owner_id, size);
                CREATE INDEX files_unconfirmed ON files(created_at) WHERE NOT confirmed;
                """)
    ]

    private static let columns = "id, conversation_id, message_id, position, owner_id, name, media_type, size, sha256, created_at"

    private let database: SQLDatabase
    /// The folder of the bytes.
    private let folder: String

    /// The store of an open database; its bytes go in the folder beside it, made (mode 0700) if
    /// missing.
    /// - Throws: `.unavailable` when the folder cannot be made.
    public init(database: SQLDatabase) throws {
        self.database = database
        folder = database.path + ".files"
        guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
            throw AppError(.unavailable, "the folder for files \(folder) cannot be made: \(String(cString: strerror(errno)))")
        }
    }

    public func file(_ id: FileID) async throws -> SharedFile? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM files WHERE id = ?", arguments: [id.rawValue]).map(Self.file)
        }
    }

    public func files(of messageID: MessageID, in conversationID: ConversationID) async throws -> [SharedFile] {
        try await database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.columns) FROM files WHERE conversation_id = ? AND message_id = ? ORDER BY owner_id, position",
                arguments: [conversationID.rawValue, messageID.rawValue]
            ).map(Self.file)
        }
    }

    public func files(in conversationID: ConversationID, before: SharedFile?, limit: Int) async throws -> [SharedFile] {
        let after = before.map { (WireFormat.milliseconds($0.createdAt), $0.id.rawValue) } ?? (Int64.max, "")
        return try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.columns) FROM files WHERE conversation_id = ? AND (created_at, id) < (?, ?)
                    ORDER BY created_at DESC, id DESC LIMIT ?
                    """,
                arguments: [conversationID.rawValue, after.0, after.1, max(limit, 0)]
            ).map(Self.file)
        }
    }

    public func storedBytes(of owner: UserID) async throws -> Int64 {
        try await database.read { db in
            try Int64.fetchOne(db, sql: "SELECT coalesce(sum(size), 0) FROM files WHERE owner_id = ?", arguments: [owner.rawValue]) ?? 0
        }
    }

    public func write(_ id: FileID, bytes: FileBytes) async throws {
        let path = try self.path(of: id)
        try await FileStreams.create(path + ".part", from: bytes)
        guard rename(path + ".part", path) == 0 else {
            unlink(path + ".part")
            throw AppError(.unavailable, "the file \(path) cannot be named: \(String(cString: strerror(errno)))")
        }
    }

    public func insert(_ file: SharedFile) async throws {
        try await database.write { db in
            do {
                try db.execute(
                    sql: "INSERT INTO files (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    arguments: [
                        file.id.rawValue, file.conversationID.rawValue, file.messageID.rawValue, file.position, file.ownerID.rawValue, file.name,
                        file.mediaType, file.size, file.sha256, WireFormat.milliseconds(file.createdAt),
                    ])
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw AppError(.conflict, "the message already has a file at position \(file.position)")
            }
        }
    }

    public func bytes(of id: FileID, in range: ByteRange) -> FileBytes {
        do {
            return try FileStreams.reading(try path(of: id), offset: range.offset, count: range.count).bytes
        } catch {
            return AsyncThrowingStream { throw error }
        }
    }

    public func delete(_ ids: [FileID]) async throws {
        guard !ids.isEmpty else { return }
        let raw = ids.map(\.rawValue)
        try await database.write { db in
            try db.execute(sql: "DELETE FROM files WHERE id IN (SELECT value FROM json_each(?))", arguments: [try JSONIDs.encode(ids)])
        }
        // After the rows: a crash in between leaves bytes no row names, which `sweep` removes.
        for id in raw where Self.isSafe(id) {
            unlink(folder + "/" + id)
            unlink(folder + "/" + id + ".part")
        }
    }

    public func unconfirmed(before cutoff: Date, limit: Int) async throws -> [SharedFile] {
        try await database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.columns) FROM files WHERE NOT confirmed AND created_at < ? ORDER BY created_at LIMIT ?",
                arguments: [WireFormat.milliseconds(cutoff), limit]
            ).map(Self.file)
        }
    }

    public func confirm(_ ids: [FileID]) async throws {
        guard !ids.isEmpty else { return }
        try await database.write { db in
            try db.execute(sql: "UPDATE files SET confirmed = 1 WHERE id IN (SELECT value FROM json_each(?))", arguments: [try JSONIDs.encode(ids)])
        }
    }

    public func sweep(before cutoff: Date) async throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let old = names.filter { name in
            var info = stat()
            return Self.isSafe(Self.id(named: name)) && stat(folder + "/" + name, &info) == 0
                && Double(info.st_mtim.tv_sec) < cutoff.timeIntervalSince1970
        }
        // The rows of a batch of names in one query: one a name took a statement per stored file.
        for start in stride(from: 0, to: old.count, by: Self.sweepBatch) {
            let batch = old[start..<min(start + Self.sweepBatch, old.count)]
            let ids = try JSONIDs.encode(batch.map { FileID(Self.id(named: $0)) })
            let recorded = Set(
                try await database.read { db in
                    try String.fetchAll(db, sql: "SELECT id FROM files WHERE id IN (SELECT value FROM json_each(?))", arguments: [ids])
                })
            for name in batch where name.hasSuffix(".part") || !recorded.contains(Self.id(named: name)) { unlink(folder + "/" + name) }
        }
    }

    /// Most names of the folder whose rows one query of `sweep` looks up.
    private static let sweepBatch = 500

    /// The file id a name of the folder holds the bytes of: `ID`, or `ID.part` while written.
    private static func id(named name: String) -> String { name.hasSuffix(".part") ? String(name.dropLast(5)) : name }

    /// Where the bytes of `id` are.
    /// - Throws: `.notFound` for an id the store did not make (it never names a path elsewhere).
    private func path(of id: FileID) throws -> String {
        guard Self.isSafe(id.rawValue) else { throw FilesRules.noFile(id) }
        return folder + "/" + id.rawValue
    }

    /// Whether `id` is one the store could have made: letters and digits only, so that it names a
    /// file of the folder and nothing else.
    private static func isSafe(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64 && id.utf8.allSatisfy { (48...57).contains($0) || (97...122).contains($0) }
    }

    private static func file(_ row: Row) -> SharedFile {
        SharedFile(
            id: FileID(row[0] as String), conversationID: ConversationID(row[1] as String), messageID: MessageID(row[2] as String),
            position: row[3], ownerID: UserID(row[4] as String), name: row[5], mediaType: row[6], size: row[7], sha256: row[8],
            createdAt: WireFormat.date(milliseconds: row[9]))
    }
}
