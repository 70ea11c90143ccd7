/// The files `--store` writes instead of the in-memory service, following ADR 31: the rules in
/// one service of the core over a store port, and stores that only read and write, in memory, in
/// SQLite and in PostgreSQL.
enum StoreTemplates {
    /// Path (relative to the package root) → contents.
    static let files: [String: String] = [
        "Modules/__Name__/Core/__Name__Store.swift": port,
        "Modules/__Name__/Core/Stored__Name__Service.swift": storedService,
        "Modules/__Name__/Core/InMemory__Name__Store.swift": inMemoryStore,
        "Modules/__Name__/Live/SQLite/SQL__Name__Store.swift": sqlStore,
        "Modules/__Name__/Live/Postgres/Postgres__Name__Store.swift": postgresStore,
    ]

    /// What the tests make the service with, over `items`.
    static let service = "Stored__Name__Service(store: InMemory__Name__Store(items: items))"
    /// What the container makes the service with, over the sample items.
    static let sampleService = "Stored__Name__Service(store: InMemory__Name__Store())"

    static let port = """
        import Kernel

        /// Where __Name__'s items are kept: it reads and writes, and decides nothing
        /// (`Stored__Name__Service` does). Implementations: `InMemory__Name__Store`,
        /// `SQL__Name__Store`, `Postgres__Name__Store`.
        public protocol __Name__Store: Sendable {
            /// Every item, oldest first.
            func items() async throws -> [__Name__Item]
            /// Keeps an item titled `title` after the others, and gives it back with its id.
            func append(title: String) async throws -> __Name__Item
        }

        """

    static let storedService = """
        import Foundation
        import Kernel

        /// __Name__'s rules, written once for every store: a title is trimmed and must not be empty.
        public struct Stored__Name__Service: __Name__Service {
            private let store: any __Name__Store

            /// Creates the service over `store`.
            public init(store: any __Name__Store) { self.store = store }

            public func items() async throws -> [__Name__Item] { try await store.items() }

            public func add(title: String) async throws -> __Name__Item {
                let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !title.isEmpty else { throw AppError(.invalidInput, "a __name__ item needs a title") }
                return try await store.append(title: title)
            }
        }

        """

    static let inMemoryStore = """
        import Kernel

        /// __Name__'s items in memory, seeded with a sample.
        public actor InMemory__Name__Store: __Name__Store {
            private var stored: [__Name__Item]

            /// Creates the store holding `items`.
            public init(items: [__Name__Item] = [__Name__Item(id: "1", title: "Welcome to __Name__")]) {
                stored = items
            }

            public func items() async throws -> [__Name__Item] { stored }

            public func append(title: String) async throws -> __Name__Item {
                let item = __Name__Item(id: String(stored.count + 1), title: title)
                stored.append(item)
                return item
            }
        }

        """

    static let sqlStore = """
        import GRDB
        import Kernel
        import SQLStore
        import __Name__

        /// __Name__'s items in a SQLite file. Its table comes with `migrations`, which the SQLite
        /// backend applies with every other feature's when it opens the file.
        public struct SQL__Name__Store: __Name__Store {
            /// __Name__'s migrations, oldest first.
            public static let migrations = [
                SchemaMigration(
                    feature: "__name__", version: 1,
                    sql: "CREATE TABLE __name___items (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
            ]

            private let database: SQLDatabase

            /// The store of an open database.
            public init(database: SQLDatabase) { self.database = database }

            public func items() async throws -> [__Name__Item] {
                try await database.read { db in
                    try Row.fetchAll(db, sql: "SELECT id, title FROM __name___items ORDER BY id").map { row in
                        __Name__Item(id: String(row["id"] as Int64), title: row["title"])
                    }
                }
            }

            public func append(title: String) async throws -> __Name__Item {
                try await database.write { db in
                    try db.execute(sql: "INSERT INTO __name___items (title) VALUES (?)", arguments: [title])
                    return __Name__Item(id: String(db.lastInsertedRowID), title: title)
                }
            }
        }

        """

    static let postgresStore = """
        import Kernel
        import PostgresNIO
        import PostgresStore
        import __Name__

        /// __Name__'s items in a PostgreSQL database, as on SQLite (`SQL__Name__Store`). Its table
        /// comes with `migrations`, which the PostgreSQL backend applies with every other feature's.
        public struct Postgres__Name__Store: __Name__Store {
            /// __Name__'s migrations, oldest first.
            public static let migrations = [
                PGDatabase.Migration(
                    feature: "__name__", version: 1,
                    ["CREATE TABLE __name___items (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, title text NOT NULL)"])
            ]

            private let database: PGDatabase

            /// The store of an open database.
            public init(database: PGDatabase) { self.database = database }

            public func items() async throws -> [__Name__Item] {
                try await database.query("SELECT id, title FROM __name___items ORDER BY id").map { row in
                    let (id, title) = try row.decode((Int64, String).self)
                    return __Name__Item(id: String(id), title: title)
                }
            }

            public func append(title: String) async throws -> __Name__Item {
                let rows = try await database.query("INSERT INTO __name___items (title) VALUES (\\(title)) RETURNING id")
                guard let id = try rows.first?.decode(Int64.self) else { throw AppError(.internal, "the database kept no __name__ item") }
                return __Name__Item(id: String(id), title: title)
            }
        }

        """
}
