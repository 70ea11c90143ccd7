import Auth
import Foundation
import Kernel
import PostgresNIO
import PostgresStore

/// A server's password reset codes in PostgreSQL (`auth_reset_codes`, one an account), shared by
/// every instance: a code is redeemed by one `DELETE … RETURNING`, so it works once however many
/// instances are asked at once. Times are seconds since 1970.
public struct PostgresResetCodes: ResetCodeStore {
    /// The table's migration.
    static let migration = PGDatabase.Migration(
        feature: "auth", version: 4,
        [
            """
            CREATE TABLE auth_reset_codes (digest text COLLATE "C" PRIMARY KEY,
                                           user_id text COLLATE "C" NOT NULL UNIQUE REFERENCES auth_accounts(id),
                                           expires_at double precision NOT NULL)
            """
        ])

    private let database: PGDatabase

    /// The codes of an open database.
    public init(database: PGDatabase) { self.database = database }

    public func replace(_ digest: String, for user: UserID, until expiresAt: Date) async throws {
        let expires = expiresAt.timeIntervalSince1970
        try await database.write(ordered: false) { transaction in
            try await transaction.query("DELETE FROM auth_reset_codes WHERE user_id = \(user.rawValue)")
            try await transaction.query(
                "INSERT INTO auth_reset_codes (digest, user_id, expires_at) VALUES (\(digest), \(user.rawValue), \(expires))")
        }
    }

    public func redeem(_ digest: String, at now: Date) async throws -> UserID? {
        let now = now.timeIntervalSince1970
        return try await database.query(
            "DELETE FROM auth_reset_codes WHERE digest = \(digest) AND expires_at > \(now) RETURNING user_id"
        ).first.map { UserID(try $0.decode(String.self)) }
    }
}
