import Auth
import Foundation
import Kernel
import PostgresNIO
import PostgresStore

/// The audit record in PostgreSQL (`auth_audit`), one for every instance. Times are seconds since 1970.
public struct PostgresAuditStore: AuditStore {
    /// The table's migration.
    static let migration = PGDatabase.Migration(
        feature: "auth", version: 6,
        [
            """
            CREATE TABLE auth_audit (id text COLLATE "C" PRIMARY KEY, at double precision NOT NULL, actor text NOT NULL,
                                     action text NOT NULL, subject text NOT NULL)
            """,
            "CREATE INDEX auth_audit_by_time ON auth_audit (at)",
        ])

    private let database: PGDatabase

    /// The record of an open database.
    public init(database: PGDatabase) { self.database = database }

    public func record(_ entry: AuditEntry) async throws {
        let (id, at) = (SessionToken.generate().prefix(16).description, entry.at.timeIntervalSince1970)
        try await database.query(
            "INSERT INTO auth_audit (id, at, actor, action, subject) VALUES (\(id), \(at), \(entry.actor), \(entry.action), \(entry.subject))")
    }

    public func entries(limit: Int) async throws -> [AuditEntry] {
        try await database.query("SELECT at, actor, action, subject FROM auth_audit ORDER BY at DESC, id LIMIT \(limit)").map { row in
            let (at, actor, action, subject) = try row.decode((Double, String, String, String).self)
            return AuditEntry(at: Date(timeIntervalSince1970: at), actor: actor, action: action, subject: subject)
        }
    }
}
