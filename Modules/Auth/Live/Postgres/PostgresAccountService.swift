import Auth
import Foundation
import Kernel
import PostgresNIO
import PostgresStore

/// Accounts and sessions in a PostgreSQL database, as in SQLite (`SQLAccountService`): a
/// sign-up writes the account, its profile and its first session in one transaction, so an
/// instance killed at any moment leaves either no account or a complete one. Times are seconds
/// since 1970.
public struct PostgresAccountService: AccountService {
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
        PostgresSessionEnds.migration,
    ]

    private let database: PGDatabase
    private let hasher: any PasswordHasher
    private let digest: any TokenDigest
    private let createProfile: @Sendable (Account, String, PGDatabase.Transaction) async throws -> Void
    private let clock: any WallClock
    private let idleLimit: TimeInterval

    /// Creates the service over an open database.
    /// - Parameter createProfile: writes a new account's profile (account, display name) inside
    ///   the sign-up's transaction; the composition root connects it to Profile's table.
    public init(
        database: PGDatabase, hasher: any PasswordHasher, digest: any TokenDigest,
        createProfile: @escaping @Sendable (Account, String, PGDatabase.Transaction) async throws -> Void,
        clock: any WallClock = SystemWallClock(), idleLimit: TimeInterval = AuthRules.defaultIdleLimit
    ) {
        self.database = database
        self.hasher = hasher
        self.digest = digest
        self.createProfile = createProfile
        self.clock = clock
        self.idleLimit = idleLimit
    }

    public func signUp(email: String, displayName: String, password: String) async throws -> IssuedSession {
        let (email, name) = try AuthRules.signUp(email: email, displayName: displayName, password: password)
        let account = Account(id: .random(), email: email)
        let hash = try await hasher.hash(password)
        let token = SessionToken.generate()
        let (tokenDigest, now, createProfile) = (digest.digest(token), clock.now().timeIntervalSince1970, createProfile)
        try await database.write(ordered: false) { transaction in
            let inserted = try await transaction.query(
                """
                INSERT INTO auth_accounts (id, email, password_hash, created_at) VALUES (\(account.id.rawValue), \(email), \(hash), \(now))
                ON CONFLICT DO NOTHING RETURNING id
                """)
            guard !inserted.isEmpty else { throw AuthRules.emailTaken(email) }
            FaultPoint.signUpAccountWritten.reach()
            try await createProfile(account, name, transaction)
            try await transaction.query(
                """
                INSERT INTO auth_sessions (token_digest, user_id, created_at, last_used_at) VALUES (\(tokenDigest), \(account.id.rawValue), \(now), \(now))
                """)
        }
        return IssuedSession(account: account, token: token)
    }

    public func signIn(email: String, password: String) async throws -> IssuedSession {
        let email = AuthRules.signInKey(email)
        let stored = try await database.query("SELECT id, password_hash FROM auth_accounts WHERE email = \(email)").first
            .map { row in try row.decode((String, String).self) }.map { (id: UserID($0.0), hash: $0.1) }
        guard try await hasher.verify(password, against: AuthRules.hashToCheck(password, stored: stored?.hash)), let stored else {
            throw AuthRules.wrongCredentials
        }
        let token = SessionToken.generate()
        let (tokenDigest, now) = (digest.digest(token), clock.now().timeIntervalSince1970)
        // Only if the password is still the one just checked: a change committed during the
        // bcrypt check must not leave a session issued on the old password.
        let issued = try await database.query(
            """
            INSERT INTO auth_sessions (token_digest, user_id, created_at, last_used_at)
            SELECT \(tokenDigest), id, \(now), \(now) FROM auth_accounts WHERE id = \(stored.id.rawValue) AND password_hash = \(stored.hash)
            RETURNING user_id
            """)
        guard !issued.isEmpty else { throw AuthRules.wrongCredentials }
        return IssuedSession(account: Account(id: stored.id, email: email), token: token)
    }

    public func account(for token: String) async throws -> Account {
        let (tokenDigest, now) = (digest.digest(token), clock.now())
        let found = try await database.query(
            """
            SELECT a.id, a.email, s.last_used_at FROM auth_sessions s JOIN auth_accounts a ON a.id = s.user_id WHERE s.token_digest = \(tokenDigest)
            """
        ).first.map { row in try row.decode((String, String, Double).self) }
            .map { (account: Account(id: UserID($0.0), email: $0.1), lastUsed: Date(timeIntervalSince1970: $0.2)) }
        guard let found else { throw AppError.notSignedIn }
        if AuthRules.hasExpired(lastUsed: found.lastUsed, now: now, limit: idleLimit) {
            try await revoke(token: token)
            throw AppError.notSignedIn
        }
        if now.timeIntervalSince(found.lastUsed) > AuthRules.lastUseGranularity {
            try await database.query("UPDATE auth_sessions SET last_used_at = \(now.timeIntervalSince1970) WHERE token_digest = \(tokenDigest)")
        }
        return found.account
    }

    public func revoke(token: String) async throws {
        try await database.query("DELETE FROM auth_sessions WHERE token_digest = \(digest.digest(token))")
    }

    public func changePassword(token: String, current: String, new: String) async throws {
        let account = try await account(for: token)
        let hash = try await database.query("SELECT password_hash FROM auth_accounts WHERE id = \(account.id.rawValue)").first?.decode(String.self)
        guard try await hasher.verify(current, against: AuthRules.hashToCheck(current, stored: hash)) else { throw AuthRules.wrongCurrentPassword }
        try Validation.password(new)
        let (newHash, kept) = (try await hasher.hash(new), digest.digest(token))
        try await database.write(ordered: false) { transaction in
            try await transaction.query("UPDATE auth_accounts SET password_hash = \(newHash) WHERE id = \(account.id.rawValue)")
            try await transaction.query("DELETE FROM auth_sessions WHERE user_id = \(account.id.rawValue) AND token_digest != \(kept)")
        }
    }
}
