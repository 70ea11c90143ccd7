import Auth
import Foundation
import GRDB
import Kernel
import SQLStore

/// Accounts and sessions in the SQLite database. A sign-up writes the account, its profile and
/// its first session in one transaction, so a process killed at any moment leaves either no
/// account or a complete one.
public struct SQLAccountService: AccountService {
    private let database: SQLDatabase
    private let hasher: any PasswordHasher
    private let digest: any TokenDigest
    private let createProfile: @Sendable (Account, String, Database) throws -> Void
    private let clock: any WallClock
    private let idleLimit: TimeInterval

    /// Creates the service over an open database.
    /// - Parameter createProfile: writes a new account's profile (account, display name) inside
    ///   the sign-up's transaction; the composition root connects it to Profile's table.
    public init(
        database: SQLDatabase, hasher: any PasswordHasher, digest: any TokenDigest,
        createProfile: @escaping @Sendable (Account, String, Database) throws -> Void,
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
        let (tokenDigest, now, createProfile) = (digest.digest(token), clock.now(), createProfile)
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO auth_accounts (id, email, password_hash, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [account.id.rawValue, email, hash, now])
            guard db.changesCount > 0 else { throw AuthRules.emailTaken(email) }
            FaultPoint.signUpAccountWritten.reach()
            try createProfile(account, name, db)
            try Self.insertSession(tokenDigest, for: account.id, at: now, db)
        }
        return IssuedSession(account: account, token: token)
    }

    public func signIn(email: String, password: String) async throws -> IssuedSession {
        let email = AuthRules.signInKey(email)
        let stored = try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT id, password_hash FROM auth_accounts WHERE email = ?", arguments: [email])
                .map { (id: UserID(try $0.decode(String.self, atIndex: 0)), hash: try $0.decode(String.self, atIndex: 1)) }
        }
        guard try await hasher.verify(password, against: AuthRules.hashToCheck(password, stored: stored?.hash)), let stored else {
            throw AuthRules.wrongCredentials
        }
        let token = SessionToken.generate()
        let (tokenDigest, now) = (digest.digest(token), clock.now())
        // Only if the password is still the one just checked: a change committed during the
        // bcrypt check must not leave a session issued on the old password.
        let issued = try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO auth_sessions (token_digest, user_id, created_at, last_used_at)
                    SELECT ?, id, ?, ? FROM auth_accounts WHERE id = ? AND password_hash = ?
                    """, arguments: [tokenDigest, now, now, stored.id.rawValue, stored.hash])
            return db.changesCount > 0
        }
        guard issued else { throw AuthRules.wrongCredentials }
        return IssuedSession(account: Account(id: stored.id, email: email), token: token)
    }

    public func account(for token: String) async throws -> Account {
        let (tokenDigest, now, idleLimit) = (digest.digest(token), clock.now(), idleLimit)
        let found = try await database.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT a.id, a.email, s.last_used_at FROM auth_sessions s JOIN auth_accounts a ON a.id = s.user_id WHERE s.token_digest = ?
                    """, arguments: [tokenDigest]
            )
            .map {
                (
                    account: Account(id: UserID(try $0.decode(String.self, atIndex: 0)), email: try $0.decode(atIndex: 1)),
                    lastUsed: try $0.decode(Date.self, atIndex: 2)
                )
            }
        }
        guard let found else { throw AppError.notSignedIn }
        if AuthRules.hasExpired(lastUsed: found.lastUsed, now: now, limit: idleLimit) {
            try await revoke(token: token)
            throw AppError.notSignedIn
        }
        if now.timeIntervalSince(found.lastUsed) > AuthRules.lastUseGranularity {
            try await database.write(notifying: false) { db in
                try db.execute(sql: "UPDATE auth_sessions SET last_used_at = ? WHERE token_digest = ?", arguments: [now, tokenDigest])
            }
        }
        return found.account
    }

    public func revoke(token: String) async throws {
        let tokenDigest = digest.digest(token)
        try await database.write { db in try db.execute(sql: "DELETE FROM auth_sessions WHERE token_digest = ?", arguments: [tokenDigest]) }
    }

    public func changePassword(token: String, current: String, new: String) async throws {
        let account = try await account(for: token)
        let hash = try await database.read { db in
            try String.fetchOne(db, sql: "SELECT password_hash FROM auth_accounts WHERE id = ?", arguments: [account.id.rawValue])
        }
        guard try await hasher.verify(current, against: AuthRules.hashToCheck(current, stored: hash)) else { throw AuthRules.wrongCurrentPassword }
        try Validation.password(new)
        let (newHash, kept) = (try await hasher.hash(new), digest.digest(token))
        try await database.write { db in
            try db.execute(sql: "UPDATE auth_accounts SET password_hash = ? WHERE id = ?", arguments: [newHash, account.id.rawValue])
            try db.execute(sql: "DELETE FROM auth_sessions WHERE user_id = ? AND token_digest != ?", arguments: [account.id.rawValue, kept])
        }
    }

    private static func insertSession(_ digest: String, for user: UserID, at now: Date, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO auth_sessions (token_digest, user_id, created_at, last_used_at) VALUES (?, ?, ?, ?)",
            arguments: [digest, user.rawValue, now, now])
    }
}
