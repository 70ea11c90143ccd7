import Auth
import Foundation
import Kernel
import PostgresNIO
import PostgresStore

/// Accounts and sessions in a PostgreSQL database, under `StoredAccountService`, as in SQLite
/// (`SQLAccountStore`): a sign-up writes the account, its profile and its first session in one
/// transaction, so an instance killed at any moment leaves either no account or a complete one.
/// Times are seconds since 1970.
public struct PostgresAccountStore: AccountStore {
    /// Auth's migrations, oldest first.
    public static let migrations = [
        PGDatabase.Migration(
            feature: "auth", version: 1,
            [
                """
                CREATE TABLE auth_accounts (id text COLLATE "C" PRIMARY KEY, email text COLLATE "C" NOT NULL UNIQUE, password_hash text NOT NULL,
                                            created_at double precision NOT NULL)
                """,
                """
                CREATE TABLE auth_sessions (token_digest text COLLATE "C" PRIMARY KEY, user_id text COLLATE "C" NOT NULL REFERENCES auth_accounts(id),
                                            created_at double precision NOT NULL, last_used_at double precision NOT NULL)
                """,
                "CREATE INDEX auth_sessions_by_user ON auth_sessions (user_id)",
            ]),
        PostgresSessionEnds.migration, PostgresRegistrationCodes.migration, PostgresResetCodes.migration,
        PGDatabase.Migration(feature: "auth", version: 5, ["ALTER TABLE auth_accounts ADD COLUMN suspended_at double precision"]),
        PostgresAuditStore.migration,
        PGDatabase.Migration(feature: "auth", version: 7, ["ALTER TABLE auth_accounts ADD COLUMN admin_since double precision"]),
        PostgresReportStore.migration,
        PostgresBotStore.migration,
    ]

    private let database: PGDatabase
    private let createProfile: @Sendable (Account, String, PGDatabase.Transaction) async throws -> Void

    /// The store of an open database.
    /// - Parameter createProfile: writes a new account's profile (account, display name) inside
    ///   the sign-up's transaction; the composition root connects it to Profile's table.
    public init(database: PGDatabase, createProfile: @escaping @Sendable (Account, String, PGDatabase.Transaction) async throws -> Void) {
        self.database = database
        self.createProfile = createProfile
    }

    public func create(_ account: Account, displayName: String, passwordHash: String, session: String, at now: Date) async throws -> Bool {
        let (now, createProfile) = (now.timeIntervalSince1970, createProfile)
        return try await database.write(ordered: false) { transaction in
            let inserted = try await transaction.query(
                """
                INSERT INTO auth_accounts (id, email, password_hash, created_at) VALUES (\(account.id.rawValue), \(account.email), \(passwordHash), \(now))
                ON CONFLICT DO NOTHING RETURNING id
                """)
            guard !inserted.isEmpty else { return false }
            FaultPoint.signUpAccountWritten.reach()
            try await createProfile(account, displayName, transaction)
            try await transaction.query(
                """
                INSERT INTO auth_sessions (token_digest, user_id, created_at, last_used_at) VALUES (\(session), \(account.id.rawValue), \(now), \(now))
                """)
            return true
        }
    }

    public func credentials(ofEmail email: String) async throws -> (id: UserID, passwordHash: String)? {
        try await database.query("SELECT id, password_hash FROM auth_accounts WHERE email = \(email)").first
            .map { row in try row.decode((String, String).self) }.map { (id: UserID($0.0), passwordHash: $0.1) }
    }

    public func passwordHash(of id: UserID) async throws -> String? {
        try await database.query("SELECT password_hash FROM auth_accounts WHERE id = \(id.rawValue)").first?.decode(String.self)
    }

    public func startSession(_ session: String, of id: UserID, ifPasswordHashIs passwordHash: String, at now: Date) async throws -> Bool {
        let now = now.timeIntervalSince1970
        return try await !database.query(
            """
            INSERT INTO auth_sessions (token_digest, user_id, created_at, last_used_at)
            SELECT \(session), id, \(now), \(now) FROM auth_accounts WHERE id = \(id.rawValue) AND password_hash = \(passwordHash)
              AND suspended_at IS NULL
            RETURNING user_id
            """
        ).isEmpty
    }

    public func session(_ session: String) async throws -> (account: Account, lastUsed: Date)? {
        try await database.query(
            "SELECT a.id, a.email, s.last_used_at FROM auth_sessions s JOIN auth_accounts a ON a.id = s.user_id WHERE s.token_digest = \(session)"
        ).first.map { row in try row.decode((String, String, Double).self) }
            .map { (Account(id: UserID($0.0), email: $0.1), Date(timeIntervalSince1970: $0.2)) }
    }

    public func touch(_ session: String, at now: Date) async throws {
        try await database.query("UPDATE auth_sessions SET last_used_at = \(now.timeIntervalSince1970) WHERE token_digest = \(session)")
    }

    public func endSession(_ session: String) async throws {
        try await database.query("DELETE FROM auth_sessions WHERE token_digest = \(session)")
    }

    public func setPasswordHash(_ passwordHash: String, of id: UserID, keeping kept: String) async throws {
        try await database.write(ordered: false) { transaction in
            try await transaction.query("UPDATE auth_accounts SET password_hash = \(passwordHash) WHERE id = \(id.rawValue)")
            try await transaction.query("DELETE FROM auth_sessions WHERE user_id = \(id.rawValue) AND token_digest != \(kept)")
        }
    }

    public func setSuspended(_ id: UserID, at now: Date?) async throws -> Bool {
        let at = now?.timeIntervalSince1970
        return try await database.write(ordered: false) { transaction in
            let found = try await transaction.query("UPDATE auth_accounts SET suspended_at = \(at) WHERE id = \(id.rawValue) RETURNING id")
            guard !found.isEmpty else { return false }
            // Every instance closes the sessions' sockets within about a second (`PostgresSessionEnds`).
            if now != nil { try await transaction.query("DELETE FROM auth_sessions WHERE user_id = \(id.rawValue)") }
            return true
        }
    }

    public func isSuspended(_ id: UserID) async throws -> Bool {
        try await database.query("SELECT suspended_at IS NOT NULL FROM auth_accounts WHERE id = \(id.rawValue)").first?.decode(Bool.self) ?? false
    }

    public func delete(_ id: UserID) async throws {
        try await database.write(ordered: false) { transaction in
            // Every instance closes the sessions' sockets within about a second (`PostgresSessionEnds`).
            try await transaction.query("DELETE FROM auth_sessions WHERE user_id = \(id.rawValue)")
            try await transaction.query("DELETE FROM auth_reset_codes WHERE user_id = \(id.rawValue)")
            try await transaction.query("DELETE FROM auth_accounts WHERE id = \(id.rawValue)")
        }
    }

    public func setAdmin(_ id: UserID, since now: Date?) async throws -> Bool {
        guard now == nil else {
            let at = now?.timeIntervalSince1970
            try await database.query("UPDATE auth_accounts SET admin_since = coalesce(admin_since, \(at)) WHERE id = \(id.rawValue)")
            return true
        }
        return try await database.write(ordered: false) { transaction in
            // The admins' rows locked: a revoke at once on another instance waits, then sees this one's outcome.
            let admins = try await transaction.query("SELECT id FROM auth_accounts WHERE admin_since IS NOT NULL FOR UPDATE")
                .map { try $0.decode(String.self) }
            guard !(admins == [id.rawValue]) else { return false }
            try await transaction.query("UPDATE auth_accounts SET admin_since = NULL WHERE id = \(id.rawValue)")
            return true
        }
    }

    public func record(of id: UserID) async throws -> ManagedAccount? {
        try await database.query("\(unescaped: Self.records) WHERE id = \(id.rawValue)").first.map(Self.record)
    }

    public func record(ofEmail email: String) async throws -> ManagedAccount? {
        try await database.query("\(unescaped: Self.records) WHERE email = \(email)").first.map(Self.record)
    }

    public func records(after email: String?, limit: Int) async throws -> [ManagedAccount] {
        try await database.query("\(unescaped: Self.records) WHERE email > \(email ?? "") ORDER BY email LIMIT \(limit)").map(Self.record)
    }

    private static let records = "SELECT id, email, created_at, admin_since, suspended_at FROM auth_accounts"

    private static func record(_ row: PostgresRow) throws -> ManagedAccount {
        let (id, email, created, admin, suspended) = try row.decode((String, String, Double, Double?, Double?).self)
        return ManagedAccount(
            id: UserID(id), email: email, createdAt: Date(timeIntervalSince1970: created), adminSince: admin.map(Date.init(timeIntervalSince1970:)),
            suspendedAt: suspended.map(Date.init(timeIntervalSince1970:)))
    }
}
