import Auth
import Foundation
import GRDB
import Kernel
import SQLStore

/// Accounts and sessions in the SQLite database, under `StoredAccountService`. A sign-up writes
/// the account, its profile and its first session in one transaction, so a process killed at any
/// moment leaves either no account or a complete one.
public struct SQLAccountStore: AccountStore {
    private let database: SQLDatabase
    private let createProfile: @Sendable (Account, String, Database) throws -> Void

    /// The store of an open database.
    /// - Parameter createProfile: writes a new account's profile (account, display name) inside
    ///   the sign-up's transaction; the composition root connects it to Profile's table.
    public init(database: SQLDatabase, createProfile: @escaping @Sendable (Account, String, Database) throws -> Void) {
        self.database = database
        self.createProfile = createProfile
    }

    public func create(_ account: Account, displayName: String, passwordHash: String, session: String, at now: Date) async throws -> Bool {
        let createProfile = createProfile
        return try await database.write { db in
            try db.execute(
                sql: "INSERT INTO auth_accounts (id, email, password_hash, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [account.id.rawValue, account.email, passwordHash, now])
            guard db.changesCount > 0 else { return false }
            FaultPoint.signUpAccountWritten.reach()
            try createProfile(account, displayName, db)
            try db.execute(
                sql: "INSERT INTO auth_sessions (token_digest, user_id, created_at, last_used_at) VALUES (?, ?, ?, ?)",
                arguments: [session, account.id.rawValue, now, now])
            return true
        }
    }

    public func credentials(ofEmail email: String) async throws -> (id: UserID, passwordHash: String)? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT id, password_hash FROM auth_accounts WHERE email = ?", arguments: [email])
                .map { (id: UserID(try $0.decode(String.self, atIndex: 0)), passwordHash: try $0.decode(String.self, atIndex: 1)) }
        }
    }

    public func passwordHash(of id: UserID) async throws -> String? {
        try await database.read { db in try String.fetchOne(db, sql: "SELECT password_hash FROM auth_accounts WHERE id = ?", arguments: [id.rawValue])
        }
    }

    public func startSession(_ session: String, of id: UserID, ifPasswordHashIs passwordHash: String, at now: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO auth_sessions (token_digest, user_id, created_at, last_used_at)
                    SELECT ?, id, ?, ? FROM auth_accounts WHERE id = ? AND password_hash = ? AND suspended_at IS NULL
                    """, arguments: [session, now, now, id.rawValue, passwordHash])
            return db.changesCount > 0
        }
    }

    public func session(_ session: String) async throws -> (account: Account, lastUsed: Date)? {
        try await database.read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT a.id, a.email, s.last_used_at FROM auth_sessions s JOIN auth_accounts a ON a.id = s.user_id WHERE s.token_digest = ?",
                arguments: [session]
            ).map {
                (Account(id: UserID(try $0.decode(String.self, atIndex: 0)), email: try $0.decode(atIndex: 1)), try $0.decode(Date.self, atIndex: 2))
            }
        }
    }

    public func touch(_ session: String, at now: Date) async throws {
        try await database.write(notifying: false) { db in
            try db.execute(sql: "UPDATE auth_sessions SET last_used_at = ? WHERE token_digest = ?", arguments: [now, session])
        }
    }

    public func endSession(_ session: String) async throws {
        try await database.write { db in try db.execute(sql: "DELETE FROM auth_sessions WHERE token_digest = ?", arguments: [session]) }
    }

    public func setPasswordHash(_ passwordHash: String, of id: UserID, keeping kept: String) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE auth_accounts SET password_hash = ? WHERE id = ?", arguments: [passwordHash, id.rawValue])
            try db.execute(sql: "DELETE FROM auth_sessions WHERE user_id = ? AND token_digest != ?", arguments: [id.rawValue, kept])
        }
    }

    public func setSuspended(_ id: UserID, at now: Date?) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "UPDATE auth_accounts SET suspended_at = ? WHERE id = ?", arguments: [now, id.rawValue])
            guard db.changesCount > 0 else { return false }
            if now != nil { try db.execute(sql: "DELETE FROM auth_sessions WHERE user_id = ?", arguments: [id.rawValue]) }
            return true
        }
    }

    public func isSuspended(_ id: UserID) async throws -> Bool {
        try await database.read { db in
            try Bool.fetchOne(db, sql: "SELECT suspended_at IS NOT NULL FROM auth_accounts WHERE id = ?", arguments: [id.rawValue]) ?? false
        }
    }

    public func delete(_ id: UserID) async throws {
        try await database.write { db in
            for table in ["auth_sessions", "auth_reset_codes"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE user_id = ?", arguments: [id.rawValue])
            }
            try db.execute(sql: "DELETE FROM auth_accounts WHERE id = ?", arguments: [id.rawValue])
        }
    }

    public func setAdmin(_ id: UserID, since now: Date?) async throws -> Bool {
        try await database.write { db in
            if let now {
                try db.execute(sql: "UPDATE auth_accounts SET admin_since = coalesce(admin_since, ?) WHERE id = ?", arguments: [now, id.rawValue])
            } else {
                // One writer at a time: the count cannot change between this check and the change.
                try db.execute(
                    sql: """
                        UPDATE auth_accounts SET admin_since = NULL
                        WHERE id = ? AND (admin_since IS NULL OR (SELECT count(*) FROM auth_accounts WHERE admin_since IS NOT NULL) > 1)
                        """, arguments: [id.rawValue])
            }
            return db.changesCount > 0
        }
    }

    public func record(of id: UserID) async throws -> ManagedAccount? {
        try await database.read { db in try Row.fetchOne(db, sql: Self.records + " WHERE id = ?", arguments: [id.rawValue]).map(Self.record) }
    }

    public func record(ofEmail email: String) async throws -> ManagedAccount? {
        try await database.read { db in try Row.fetchOne(db, sql: Self.records + " WHERE email = ?", arguments: [email]).map(Self.record) }
    }

    public func records(after email: String?, limit: Int) async throws -> [ManagedAccount] {
        try await database.read { db in
            try Row.fetchAll(db, sql: Self.records + " WHERE email > ? ORDER BY email LIMIT ?", arguments: [email ?? "", limit]).map(Self.record)
        }
    }

    private static let records = "SELECT id, email, created_at, admin_since, suspended_at FROM auth_accounts"

    private static func record(_ row: Row) throws -> ManagedAccount {
        ManagedAccount(
            id: UserID(try row.decode(String.self, atIndex: 0)), email: try row.decode(atIndex: 1), createdAt: try row.decode(atIndex: 2),
            adminSince: try row.decode(atIndex: 3), suspendedAt: try row.decode(atIndex: 4))
    }
}
