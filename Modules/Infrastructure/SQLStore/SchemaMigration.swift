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

    /// Creates a step that SQL alone cannot write (text that needs Unicode rules, say).
    public init(feature: String, version: Int, apply: @escaping @Sendable (Database) throws -> Void) {
        self.feature = feature
        self.version = version
        self.apply = apply
    }

    /// A step that rewrites `column` of every row of `table` through `rewrite`, for a rule SQL
    /// lacks (Unicode normalisation); a row whose new value another row already has (a unique
    /// column) is left as it is.
    public static func rewriting(
        feature: String, version: Int, table: String, column: String,
        _ rewrite: @escaping @Sendable (String) -> String
    ) -> SchemaMigration {
        SchemaMigration(feature: feature, version: version) { db in
            let rows = try Row.fetchAll(db, sql: "SELECT rowid, \(column) FROM \(table)")
            for row in rows {
                let (rowID, value): (Int64, String) = (row[0], row[1])
                let rewritten = rewrite(value)
                guard rewritten != value else { continue }
                try db.execute(
                    sql: "UPDATE \(table) SET \(column) = ? WHERE rowid = ? AND NOT EXISTS (SELECT 1 FROM \(table) WHERE \(column) = ?)",
                    arguments: [rewritten, rowID, rewritten])
            }
        }
    }

    /// The migration's identifier in GRDB's `grdb_migrations` table.
    var identifier: String { "\(feature)-\(version)" }
}
