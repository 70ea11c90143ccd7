import Auth
import Foundation
import Kernel
import PostgresNIO
import PostgresStore

/// A server's invitation codes in PostgreSQL (`auth_registration_codes`), shared by every
/// instance: a use is taken by one conditional `UPDATE`, whose row lock makes concurrent takes
/// through any instance wait and see the count the first one left. Times are seconds since 1970.
public struct PostgresRegistrationCodes: RegistrationCodeStore {
    /// The table's migration.
    static let migration = PGDatabase.Migration(
        feature: "auth", version: 3,
        [
            """
            CREATE TABLE auth_registration_codes (id text COLLATE "C" PRIMARY KEY, digest text COLLATE "C" NOT NULL UNIQUE,
                                                  uses integer NOT NULL, uses_left integer NOT NULL,
                                                  expires_at double precision NOT NULL, created_at double precision NOT NULL)
            """
        ])

    private let database: PGDatabase

    /// The codes of an open database.
    public init(database: PGDatabase) { self.database = database }

    public func add(_ code: RegistrationCode) async throws {
        let (expires, created) = (code.expiresAt.timeIntervalSince1970, code.createdAt.timeIntervalSince1970)
        try await database.query(
            """
            INSERT INTO auth_registration_codes (id, digest, uses, uses_left, expires_at, created_at)
            VALUES (\(code.id), \(code.digest), \(code.uses), \(code.usesLeft), \(expires), \(created))
            """)
    }

    public func codes() async throws -> [RegistrationCode] {
        try await database.query(
            "SELECT id, digest, uses, uses_left, expires_at, created_at FROM auth_registration_codes ORDER BY created_at DESC, id"
        ).map { row in
            let (id, digest, uses, left, expires, created) = try row.decode((String, String, Int, Int, Double, Double).self)
            return RegistrationCode(
                id: id, digest: digest, uses: uses, usesLeft: left, expiresAt: Date(timeIntervalSince1970: expires),
                createdAt: Date(timeIntervalSince1970: created))
        }
    }

    public func take(_ digest: String, at now: Date) async throws -> Bool {
        let now = now.timeIntervalSince1970
        return try await !database.query(
            """
            UPDATE auth_registration_codes SET uses_left = uses_left - 1 WHERE digest = \(digest) AND uses_left > 0 AND expires_at > \(now)
            RETURNING id
            """
        ).isEmpty
    }

    public func giveBack(_ digest: String) async throws {
        try await database.query(
            "UPDATE auth_registration_codes SET uses_left = uses_left + 1 WHERE digest = \(digest) AND uses_left < uses")
    }

    public func revoke(id: String) async throws -> Bool {
        try await !database.query("DELETE FROM auth_registration_codes WHERE id = \(id) RETURNING id").isEmpty
    }
}
