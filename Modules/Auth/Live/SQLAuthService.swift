import Auth
import Foundation
import GRDB
import Kernel
import SQLStore

/// Accounts and sessions in the SQLite database.
public struct SQLAuthService: AuthService {
    private let database: SQLDatabase
    private let hasher: any PasswordHasher
    private let sessions: any SessionStore
    private let profiles: any ProfileProvisioning
    private let clock: any WallClock

    /// Creates the service over an open database.
    public init(database: SQLDatabase, hasher: any PasswordHasher, sessions: any SessionStore,
                profiles: any ProfileProvisioning, clock: any WallClock = SystemWallClock()) {
        self.database = database
        self.hasher = hasher
        self.sessions = sessions
        self.profiles = profiles
        self.clock = clock
    }

    public func signUp(email: String, displayName: String, password: String) async throws -> Account {
        let email = try Validation.email(email)
        let name = try Validation.displayName(displayName)
        try Validation.password(password)
        let account = Account(id: .random(), email: email)
        let hash = await hasher.hash(password)
        let now = clock.now()
        let inserted = try await database.write { db in
            try db.execute(sql: "INSERT INTO auth_accounts (id, email, password_hash, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                           arguments: [account.id.rawValue, email, hash, now])
            return db.changesCount > 0
        }
        guard inserted else { throw AppError(.conflict, "an account with email \(email) already exists") }
        do {
            try await profiles.createProfile(for: account, displayName: name)
        } catch {
            _ = try? await database.write { db in try db.execute(sql: "DELETE FROM auth_accounts WHERE id = ?", arguments: [account.id.rawValue]) }
            throw error
        }
        return try await startSession(for: account)
    }

    public func signIn(email: String, password: String) async throws -> Account {
        let email = (try? Validation.email(email)) ?? email
        let stored = try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT id, password_hash FROM auth_accounts WHERE email = ?", arguments: [email])
                .map { (id: UserID($0["id"] as String), hash: $0["password_hash"] as String) }
        }
        guard let stored, await hasher.verify(password, against: stored.hash) else {
            throw AppError(.invalidCredentials, "wrong email or password")
        }
        return try await startSession(for: Account(id: stored.id, email: email))
    }

    public func signOut() async throws {
        if let session = try sessions.load() {
            try await database.write { db in try db.execute(sql: "DELETE FROM auth_sessions WHERE token = ?", arguments: [session.token]) }
        }
        try sessions.save(nil)
    }

    public func currentAccount() async throws -> Account? {
        guard let session = try sessions.load() else { return nil }
        let email = try await database.read { db in
            try String.fetchOne(db, sql: """
                SELECT a.email FROM auth_sessions s JOIN auth_accounts a ON a.id = s.user_id
                WHERE s.token = ? AND s.user_id = ?
                """, arguments: [session.token, session.userID.rawValue])
        }
        return email.map { Account(id: session.userID, email: $0) }
    }

    public func changePassword(current: String, new: String) async throws {
        guard let account = try await currentAccount() else { throw AppError.notSignedIn }
        let hash = try await database.read { db in
            try String.fetchOne(db, sql: "SELECT password_hash FROM auth_accounts WHERE id = ?", arguments: [account.id.rawValue])
        }
        guard let hash, await hasher.verify(current, against: hash) else { throw AppError(.invalidCredentials, "the current password is wrong") }
        try Validation.password(new)
        let newHash = await hasher.hash(new)
        try await database.write { db in
            try db.execute(sql: "UPDATE auth_accounts SET password_hash = ? WHERE id = ?", arguments: [newHash, account.id.rawValue])
        }
    }

    private func startSession(for account: Account) async throws -> Account {
        let token = UUID().uuidString
        let now = clock.now()
        try await database.write { db in
            try db.execute(sql: "INSERT INTO auth_sessions (token, user_id, created_at) VALUES (?, ?, ?)",
                           arguments: [token, account.id.rawValue, now])
        }
        try sessions.save(Session(userID: account.id, email: account.email, token: token))
        return account
    }
}
