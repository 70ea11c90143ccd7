import GRDB

/// One forward-only schema step of one feature. Features register theirs; the database applies
/// the unapplied ones in order when it opens. Identifiers are `<feature>-<version>`, so each
/// feature's history is independent of the others'.
public struct SchemaMigration: Sendable {
    /// The owning feature, e.g. `chat`.
    public let feature: String
    /// The step number within the feature, from 1.
    public let version: Int
    /// The change, run inside a transaction.
    public let apply: @Sendable (Database) throws -> Void

    /// Creates a step from plain SQL statements.
    public init(feature: String, version: Int, sql: String) {
        self.feature = feature
        self.version = version
        apply = { db in try db.execute(sql: sql) }
    }

    /// The migration's identifier in GRDB's `grdb_migrations` table.
    var identifier: String { "\(feature)-\(version)" }
}
