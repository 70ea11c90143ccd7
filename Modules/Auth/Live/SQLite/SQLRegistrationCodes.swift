import Auth
import Foundation
import GRDB
import Kernel
import SQLStore

/// A server's invitation codes in its SQLite file (`auth_registration_codes`): a use is taken by
/// one conditional `UPDATE`, which SQLite's single writer makes atomic.
public struct SQLRegistrationCodes: RegistrationCodeStore {
    private let database: SQLDatabase

    /// The codes of an open database.
    public init(database: SQLDatabase) { self.database = database }

    public func add(_ code: RegistrationCode) async throws {
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO auth_registration_codes (id, digest, uses, uses_left, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [code.id, code.digest, code.uses, code.usesLeft, code.expiresAt, code.createdAt])
        }
    }

    public func codes() async throws -> [RegistrationCode] {
        try await database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, digest, uses, uses_left, expires_at, created_at FROM auth_registration_codes ORDER BY created_at DESC, id"
            ).map { row in
                RegistrationCode(id: row[0], digest: row[1], uses: row[2], usesLeft: row[3], expiresAt: row[4], createdAt: row[5])
            }
        }
    }

    public func take(_ digest: String, at now: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE auth_registration_codes SET uses_left = uses_left - 1 WHERE digest = ? AND uses_left > 0 AND expires_at > ?",
                arguments: [digest, now])
            return db.changesCount > 0
        }
    }

    public func giveBack(_ digest: String) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE auth_registration_codes SET uses_left = uses_left + 1 WHERE digest = ? AND uses_left < uses", arguments: [digest])
        }
    }

    public func revoke(id: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM auth_registration_codes WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }
}
