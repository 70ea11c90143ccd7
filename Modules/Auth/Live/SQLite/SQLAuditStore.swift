import Auth
import Foundation
import GRDB
import Kernel
import SQLStore

/// The audit record in a server's SQLite file (`auth_audit`).
public struct SQLAuditStore: AuditStore {
    private let database: SQLDatabase

    /// The record of an open database.
    public init(database: SQLDatabase) { self.database = database }

    public func record(_ entry: AuditEntry) async throws {
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO auth_audit (id, at, actor, action, subject) VALUES (?, ?, ?, ?, ?)",
                arguments: [SessionToken.generate().prefix(16).description, entry.at, entry.actor, entry.action, entry.subject])
        }
    }

    public func entries(limit: Int) async throws -> [AuditEntry] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT at, actor, action, subject FROM auth_audit ORDER BY at DESC, id LIMIT ?", arguments: [limit]).map {
                AuditEntry(at: $0[0], actor: $0[1], action: $0[2], subject: $0[3])
            }
        }
    }
}
