import GRDB
import Kernel
import SQLStore
import Files

/// Files's items in a SQLite file. Its table comes with `migrations`, which the SQLite
/// backend applies with every other feature's when it opens the file.
public struct SQLFilesStore: FilesStore {
    /// Files's migrations, oldest first.
    public static let migrations = [
        SchemaMigration(
            feature: "files", version: 1,
            sql: "CREATE TABLE files_items (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
    ]

    private let database: SQLDatabase

    /// The store of an open database.
    public init(database: SQLDatabase) { self.database = database }

    public func items() async throws -> [FilesItem] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, title FROM files_items ORDER BY id").map { row in
                FilesItem(id: String(row["id"] as Int64), title: row["title"])
            }
        }
    }

    public func append(title: String) async throws -> FilesItem {
        try await database.write { db in
            try db.execute(sql: "INSERT INTO files_items (title) VALUES (?)", arguments: [title])
            return FilesItem(id: String(db.lastInsertedRowID), title: title)
        }
    }
}
