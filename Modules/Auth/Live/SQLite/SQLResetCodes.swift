import Auth
import Foundation
import GRDB
import Kernel
import SQLStore

/// A server's password reset codes in its SQLite file (`auth_reset_codes`, one an account): a
/// code is redeemed by one `DELETE … RETURNING`, so it works once.
public struct SQLResetCodes: ResetCodeStore {
    private let database: SQLDatabase

    /// The codes of an open database.
    public init(database: SQLDatabase) { self.database = database }

    public func replace(_ digest: String, for user: UserID, until expiresAt: Date) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM auth_reset_codes WHERE user_id = ?", arguments: [user.rawValue])
            try db.execute(
                sql: "INSERT INTO auth_reset_codes (digest, user_id, expires_at) VALUES (?, ?, ?)", arguments: [digest, user.rawValue, expiresAt])
        }
    }

    public func redeem(_ digest: String, at now: Date) async throws -> UserID? {
        let user: String? = try await database.write { db in
            try String.fetchOne(
                db, sql: "DELETE FROM auth_reset_codes WHERE digest = ? AND expires_at > ? RETURNING user_id", arguments: [digest, now])
        }
        return user.map { UserID($0) }
    }
}
