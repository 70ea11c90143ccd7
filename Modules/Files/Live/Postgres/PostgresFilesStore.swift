import Files
import Foundation
import Kernel
import PostgresNIO
import PostgresStore
import Synchronization

/// Files in a PostgreSQL database (ADR 36): their rows in `files`, their bytes in `file_chunks`
/// (1 MiB a row, `bytea`), so that every instance behind the load balancer serves every file with
/// no shared disk. Each chunk is inserted as it arrives, never the whole file at once; chunks no
/// row records (an upload that died) are swept an hour after the last of them came.
public struct PostgresFilesStore: FilesStore {
    /// Files' migrations, oldest first.
    public static let migrations = [
        PGDatabase.Migration(
            feature: "files", version: 1,
            [
                """
                CREATE TABLE files (id text COLLATE "C" PRIMARY KEY, conversation_id text COLLATE "C" NOT NULL, message_id text COLLATE "C" NOT NULL,
                                    position integer NOT NULL, owner_id text COLLATE "C" NOT NULL, name text NOT NULL, media_type text NOT NULL,
                                    size bigint NOT NULL, sha256 text NOT NULL, created_at bigint NOT NULL, confirmed boolean NOT NULL DEFAULT false,
                                    UNIQUE (conversation_id, message_id, owner_id, position))
                """,
                "CREATE INDEX files_by_conversation ON files (conversation_id, created_at, id)",
                "CREATE INDEX files_by_owner ON files (owner_id)",
                "CREATE INDEX files_unconfirmed ON files (created_at) WHERE NOT confirmed",
                """
                CREATE TABLE file_chunks (file_id text COLLATE "C" NOT NULL, seq integer NOT NULL, data bytea NOT NULL, written_at bigint NOT NULL,
                                          PRIMARY KEY (file_id, seq))
                """,
                // Stored as they come: compressing random or already compressed bytes costs time for nothing.
                "ALTER TABLE file_chunks ALTER COLUMN data SET STORAGE EXTERNAL",
            ])
    ]

    /// Bytes of one chunk row.
    static let chunkBytes = 1 << 20

    private static let columns = "id, conversation_id, message_id, position, owner_id, name, media_type, size, sha256, created_at"

    private let database: PGDatabase
    private let clock: any WallClock

    /// The store of an open database; `clock` dates the chunks written (for `sweep`).
    public init(database: PGDatabase, clock: any WallClock = SystemWallClock()) {
        self.database = database
        self.clock = clock
    }

    public func file(_ id: FileID) async throws -> SharedFile? {
        try await database.query("SELECT \(unescaped: Self.columns) FROM files WHERE id = \(id.rawValue)").first.map(Self.file)
    }

    public func files(of messageID: MessageID, in conversationID: ConversationID) async throws -> [SharedFile] {
        try await database.query(
            """
            SELECT \(unescaped: Self.columns) FROM files WHERE conversation_id = \(conversationID.rawValue) AND message_id = \(messageID.rawValue)
            ORDER BY owner_id, position
            """
        ).map(Self.file)
    }

    public func files(in conversationID: ConversationID, before: SharedFile?, limit: Int) async throws -> [SharedFile] {
        let (time, id) = before.map { (WireFormat.milliseconds($0.createdAt), $0.id.rawValue) } ?? (Int64.max, "")
        return try await database.query(
            """
            SELECT \(unescaped: Self.columns) FROM files WHERE conversation_id = \(conversationID.rawValue) AND (created_at, id) < (\(time), \(id))
            ORDER BY created_at DESC, id DESC LIMIT \(max(limit, 0))
            """
        ).map(Self.file)
    }

    public func storedBytes(of owner: UserID) async throws -> Int64 {
        try await database.query("SELECT coalesce(sum(size), 0)::bigint FROM files WHERE owner_id = \(owner.rawValue)").first?.decode(Int64.self) ?? 0
    }

    public func write(_ id: FileID, bytes: FileBytes) async throws {
        do {
            try await Self.insertChunks(of: id, bytes, clock: clock) { try await database.query($0) }
        } catch {
            _ = try? await database.query("DELETE FROM file_chunks WHERE file_id = \(id.rawValue)")
            throw error
        }
    }

    /// Inserts `bytes` as the chunk rows of the file `id`, `chunkBytes` a row (one empty row for
    /// an empty file), each with `run` as it fills and dated by `clock` then (so that `sweep`
    /// leaves an upload alone while it is still coming, however long it takes): the store's own
    /// statements, or those of a transaction (`StoreMigration`'s, moving a SQLite store's files in).
    public static func insertChunks(
        of id: FileID, _ bytes: FileBytes, clock: any WallClock, run: (PostgresQuery) async throws -> [PostgresRow]
    ) async throws {
        var pending: [UInt8] = []
        var seq: Int32 = 0
        func flush(_ data: ArraySlice<UInt8>) async throws {
            let written = WireFormat.milliseconds(clock.now())
            _ = try await run("INSERT INTO file_chunks (file_id, seq, data, written_at) VALUES (\(id.rawValue), \(seq), \(Data(data)), \(written))")
            seq += 1
        }
        for try await chunk in bytes {
            pending += chunk
            while pending.count >= chunkBytes {
                try await flush(pending[..<chunkBytes])
                pending.removeFirst(chunkBytes)
            }
        }
        if !pending.isEmpty || seq == 0 { try await flush(pending[...]) }
    }

    public func insert(_ file: SharedFile) async throws {
        let created = WireFormat.milliseconds(file.createdAt)
        let rows = try await database.query(
            """
            INSERT INTO files (\(unescaped: Self.columns)) VALUES (\(file.id.rawValue), \(file.conversationID.rawValue), \(file.messageID.rawValue),
                \(Int32(file.position)), \(file.ownerID.rawValue), \(file.name), \(file.mediaType), \(file.size), \(file.sha256), \(created))
            ON CONFLICT (conversation_id, message_id, owner_id, position) DO NOTHING RETURNING id
            """)
        guard !rows.isEmpty else { throw AppError(.conflict, "the message already has a file at position \(file.position)") }
    }

    public func bytes(of id: FileID, in range: ByteRange) -> FileBytes {
        let (database, position) = (database, Position(range))
        return AsyncThrowingStream<[UInt8], any Error> {
            let (offset, left) = position.state.withLock { $0 }
            guard left > 0 else { return nil }
            let seq = Int32(offset / Int64(Self.chunkBytes)), start = Int(offset % Int64(Self.chunkBytes))
            guard
                let data = try await database.query("SELECT data FROM file_chunks WHERE file_id = \(id.rawValue) AND seq = \(seq)").first?
                    .decode(Data.self), data.count > start
            else { throw AppError(.unavailable, "the bytes of file \(id) are missing from the database") }
            let chunk = Array(data[(data.startIndex + start)..<(data.startIndex + min(data.count, start + Int(left)))])
            position.state.withLock { $0 = (offset + Int64(chunk.count), left - Int64(chunk.count)) }
            return chunk
        }
    }

    public func delete(_ ids: [FileID]) async throws {
        guard !ids.isEmpty else { return }
        let raw = ids.map(\.rawValue)
        try await database.write(ordered: false) { transaction in
            try await transaction.query("DELETE FROM files WHERE id = ANY(\(raw)::text[])")
            try await transaction.query("DELETE FROM file_chunks WHERE file_id = ANY(\(raw)::text[])")
        }
    }

    public func unconfirmed(before cutoff: Date, limit: Int) async throws -> [SharedFile] {
        try await database.query(
            """
            SELECT \(unescaped: Self.columns) FROM files WHERE NOT confirmed AND created_at < \(WireFormat.milliseconds(cutoff))
            ORDER BY created_at LIMIT \(limit)
            """
        ).map(Self.file)
    }

    public func confirm(_ ids: [FileID]) async throws {
        guard !ids.isEmpty else { return }
        try await database.query("UPDATE files SET confirmed = true WHERE id = ANY(\(ids.map(\.rawValue))::text[])")
    }

    public func sweep(before cutoff: Date) async throws {
        try await database.query(
            """
            DELETE FROM file_chunks c WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.id = c.file_id)
                AND c.file_id IN (SELECT file_id FROM file_chunks GROUP BY file_id HAVING max(written_at) < \(WireFormat.milliseconds(cutoff)))
            """)
    }

    /// Where a reader of `bytes(of:in:)` is: the next byte, and how many are left.
    private final class Position: Sendable {
        let state: Mutex<(offset: Int64, left: Int64)>
        init(_ range: ByteRange) { state = Mutex((range.offset, range.count)) }
    }

    private static func file(_ row: PostgresRow) throws -> SharedFile {
        let (id, conversation, message, position, owner, name, type, size, sha256, created) = try row.decode(
            (String, String, String, Int32, String, String, String, Int64, String, Int64).self)
        return SharedFile(
            id: FileID(id), conversationID: ConversationID(conversation), messageID: MessageID(message), position: Int(position),
            ownerID: UserID(owner), name: name, mediaType: type, size: size, sha256: sha256, createdAt: WireFormat.date(milliseconds: created))
    }
}
