import Auth
import Foundation
import GRDB
import Kernel
import SQLStore

/// Bots, their tokens and hooks in the SQLite database (`auth_bots`, `auth_bot_tokens`,
/// `auth_bot_hooks`): secrets by digest alone.
public struct SQLBotStore: BotStore {
    /// The tables' migration.
    static let migration = SchemaMigration(
        feature: "auth", version: 11,
        sql: """
            CREATE TABLE auth_bots (
                id TEXT PRIMARY KEY,
                owner_id TEXT NOT NULL,
                name TEXT NOT NULL,
                created_at REAL NOT NULL,
                UNIQUE (owner_id, name)
            );
            CREATE TABLE auth_bot_tokens (
                id TEXT PRIMARY KEY,
                digest TEXT NOT NULL UNIQUE,
                bot_id TEXT NOT NULL REFERENCES auth_bots(id) ON DELETE CASCADE,
                scope TEXT NOT NULL,
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL
            );
            CREATE INDEX auth_bot_tokens_by_bot ON auth_bot_tokens(bot_id);
            CREATE TABLE auth_bot_hooks (
                id TEXT PRIMARY KEY,
                digest TEXT NOT NULL,
                bot_id TEXT NOT NULL REFERENCES auth_bots(id) ON DELETE CASCADE,
                conversation_id TEXT NOT NULL,
                created_at REAL NOT NULL
            );
            CREATE INDEX auth_bot_hooks_by_bot ON auth_bot_hooks(bot_id);
            """)

    private let database: SQLDatabase
    private let createProfile: @Sendable (Bot, Database) throws -> Void

    /// The store of an open database; `createProfile` writes a new bot's profile inside the
    /// transaction that stores it.
    public init(database: SQLDatabase, createProfile: @escaping @Sendable (Bot, Database) throws -> Void) {
        self.database = database
        self.createProfile = createProfile
    }

    public func add(_ bot: Bot) async throws -> Bool {
        let createProfile = createProfile
        return try await database.write { db in
            try db.execute(
                sql: "INSERT INTO auth_bots (id, owner_id, name, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [bot.id.rawValue, bot.owner.rawValue, bot.name, bot.createdAt])
            guard db.changesCount > 0 else { return false }
            try createProfile(bot, db)
            return true
        }
    }

    public func bots(of owner: UserID) async throws -> [Bot] {
        try await database.read { db in
            try Row.fetchAll(db, sql: Self.botColumns + " WHERE owner_id = ? ORDER BY name", arguments: [owner.rawValue]).map(Self.bot)
        }
    }

    public func bot(_ id: UserID) async throws -> Bot? {
        try await database.read { db in try Row.fetchOne(db, sql: Self.botColumns + " WHERE id = ?", arguments: [id.rawValue]).map(Self.bot) }
    }

    public func remove(_ id: UserID) async throws {
        try await database.write { db in
            for table in ["auth_bot_tokens", "auth_bot_hooks"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE bot_id = ?", arguments: [id.rawValue])
            }
            try db.execute(sql: "DELETE FROM auth_bots WHERE id = ?", arguments: [id.rawValue])
        }
    }

    public func disable(ownedBy owner: UserID) async throws {
        try await database.write { db in
            for table in ["auth_bot_tokens", "auth_bot_hooks"] {
                try db.execute(
                    sql: "DELETE FROM \(table) WHERE bot_id IN (SELECT id FROM auth_bots WHERE owner_id = ?)", arguments: [owner.rawValue])
            }
        }
    }

    public func add(_ token: BotToken, digest: String) async throws {
        let scope = String(decoding: try JSONEncoder().encode(token.scope), as: UTF8.self)
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO auth_bot_tokens (id, digest, bot_id, scope, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [token.id, digest, token.bot.rawValue, scope, token.createdAt, token.expiresAt])
        }
    }

    public func add(_ hook: Hook, digest: String) async throws {
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO auth_bot_hooks (id, digest, bot_id, conversation_id, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [hook.id, digest, hook.bot.rawValue, hook.conversationID.rawValue, hook.createdAt])
        }
    }

    public func tokens(of owner: UserID) async throws -> [BotToken] {
        try await database.read { db in
            try Row.fetchAll(
                db, sql: Self.tokenColumns + " WHERE bot_id IN (SELECT id FROM auth_bots WHERE owner_id = ?) ORDER BY created_at, id",
                arguments: [owner.rawValue]
            ).map(Self.token)
        }
    }

    public func hooks(of owner: UserID) async throws -> [Hook] {
        try await database.read { db in
            try Row.fetchAll(
                db, sql: Self.hookColumns + " WHERE bot_id IN (SELECT id FROM auth_bots WHERE owner_id = ?) ORDER BY created_at, id",
                arguments: [owner.rawValue]
            ).map(Self.hook)
        }
    }

    public func token(digest: String) async throws -> BotToken? {
        try await database.read { db in try Row.fetchOne(db, sql: Self.tokenColumns + " WHERE digest = ?", arguments: [digest]).map(Self.token) }
    }

    public func hook(_ id: String) async throws -> (hook: Hook, digest: String)? {
        try await database.read { db in
            try Row.fetchOne(db, sql: Self.hookColumns + " WHERE id = ?", arguments: [id]).map { (try Self.hook($0), try $0.decode(atIndex: 4)) }
        }
    }

    public func removeCredential(_ id: String, of owner: UserID) async throws -> Bool {
        try await database.write { db in
            var removed = 0
            for table in ["auth_bot_tokens", "auth_bot_hooks"] {
                try db.execute(
                    sql: "DELETE FROM \(table) WHERE id = ? AND bot_id IN (SELECT id FROM auth_bots WHERE owner_id = ?)",
                    arguments: [id, owner.rawValue])
                removed += db.changesCount
            }
            return removed > 0
        }
    }

    private static let botColumns = "SELECT id, name, owner_id, created_at FROM auth_bots"
    private static let tokenColumns = "SELECT id, bot_id, scope, created_at, expires_at FROM auth_bot_tokens"
    private static let hookColumns = "SELECT id, conversation_id, bot_id, created_at, digest FROM auth_bot_hooks"

    private static func bot(_ row: Row) throws -> Bot {
        Bot(
            id: UserID(try row.decode(String.self, atIndex: 0)), name: try row.decode(atIndex: 1),
            owner: UserID(try row.decode(String.self, atIndex: 2)),
            createdAt: try row.decode(atIndex: 3))
    }

    private static func token(_ row: Row) throws -> BotToken {
        BotToken(
            id: try row.decode(atIndex: 0), bot: UserID(try row.decode(String.self, atIndex: 1)),
            scope: try JSONDecoder().decode(BotScope.self, from: Data(try row.decode(String.self, atIndex: 2).utf8)),
            createdAt: try row.decode(atIndex: 3), expiresAt: try row.decode(atIndex: 4))
    }

    private static func hook(_ row: Row) throws -> Hook {
        Hook(
            id: try row.decode(atIndex: 0), conversationID: ConversationID(try row.decode(String.self, atIndex: 1)),
            bot: UserID(try row.decode(String.self, atIndex: 2)), createdAt: try row.decode(atIndex: 3))
    }
}
