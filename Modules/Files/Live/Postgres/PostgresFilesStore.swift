import Kernel
import PostgresNIO
import PostgresStore
import Files

/// Files's items in a PostgreSQL database, as on SQLite (`SQLFilesStore`). Its table
/// comes with `migrations`, which the PostgreSQL backend applies with every other feature's.
public struct PostgresFilesStore: FilesStore {
    /// Files's migrations, oldest first.
    public static let migrations = [
        PGDatabase.Migration(
            feature: "files", version: 1,
            ["CREATE TABLE files_items (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, title text NOT NULL)"])
    ]

    private let database: PGDatabase

    /// The store of an open database.
    public init(database: PGDatabase) { self.database = database }

    public func items() async throws -> [FilesItem] {
        try await database.query("SELECT id, title FROM files_items ORDER BY id").map { row in
            let (id, title) = try row.decode((Int64, String).self)
            return FilesItem(id: String(id), title: title)
        }
    }

    public func append(title: String) async throws -> FilesItem {
        let rows = try await database.query("INSERT INTO files_items (title) VALUES (\(title)) RETURNING id")
        guard let id = try rows.first?.decode(Int64.self) else { throw AppError(.internal, "the database kept no files item") }
        return FilesItem(id: String(id), title: title)
    }
}
