import Auth
import Foundation
import Kernel
import PostgresNIO
import PostgresStore

/// Bots, their tokens and hooks in PostgreSQL, one set for every instance: secrets by digest
/// alone. Times are seconds since 1970.
public struct PostgresBotStore: BotStore {
    /// The tables' migration.
    static let migration = PGDatabase.Migration(
        feature: "auth", version: 9,
        [
            """
            CREATE TABLE auth_bots (id text COLLATE "C" PRIMARY KEY, owner_id text COLLATE "C" NOT NULL, name text NOT NULL,
                                    created_at double precision NOT NULL, UNIQUE (owner_id, name))
            """,
            """
            CREATE TABLE auth_bot_tokens (id text COLLATE "C" PRIMARY KEY, digest text COLLATE "C" NOT NULL UNIQUE,
                                          bot_id text COLLATE "C" NOT NULL REFERENCES auth_bots(id) ON DELETE CASCADE, scope text NOT NULL,
                                          created_at double precision NOT NULL, expires_at double precision NOT NULL)
            """,
            "CREATE INDEX auth_bot_tokens_by_bot ON auth_bot_tokens (bot_id)",
            """
            CREATE TABLE auth_bot_hooks (id text COLLATE "C" PRIMARY KEY, digest text COLLATE "C" NOT NULL,
                                         bot_id text COLLATE "C" NOT NULL REFERENCES auth_bots(id) ON DELETE CASCADE,
                                         conversation_id text COLLATE "C" NOT NULL, created_at double precision NOT NULL)
            """,
            "CREATE INDEX auth_bot_hooks_by_bot ON auth_bot_hooks (bot_id)",
        ])

    private let database: PGDatabase
    private let createProfile: @Sendable (Bot, PGDatabase.Transaction) async throws -> Void

    /// The store of an open database; `createProfile` writes a new bot's profile inside the
    /// transaction that stores it.
    public init(database: PGDatabase, createProfile: @escaping @Sendable (Bot, PGDatabase.Transaction) async throws -> Void) {
        self.database = database
        self.createProfile = createProfile
    }

    public func add(_ bot: Bot) async throws -> Bool {
        let createProfile = createProfile
        return try await database.write(ordered: false) { transaction in
            let inserted = try await transaction.query(
                """
                INSERT INTO auth_bots (id, owner_id, name, created_at)
                VALUES (\(bot.id.rawValue), \(bot.owner.rawValue), \(bot.name), \(bot.createdAt.timeIntervalSince1970))
                ON CONFLICT DO NOTHING RETURNING id
                """)
            guard !inserted.isEmpty else { return false }
            try await createProfile(bot, transaction)
            return true
        }
    }

    public func bots(of owner: UserID) async throws -> [Bot] {
        try await database.query("\(unescaped: Self.botColumns) WHERE owner_id = \(owner.rawValue) ORDER BY name").map(Self.bot)
    }

    public func bot(_ id: UserID) async throws -> Bot? {
        try await database.query("\(unescaped: Self.botColumns) WHERE id = \(id.rawValue)").first.map(Self.bot)
    }

    public func remove(_ id: UserID) async throws {
        // The bot's tokens and hooks go with it (ON DELETE CASCADE).
        try await database.query("DELETE FROM auth_bots WHERE id = \(id.rawValue)")
    }

    public func disable(ownedBy owner: UserID) async throws {
        try await database.write(ordered: false) { transaction in
            for table in ["auth_bot_tokens", "auth_bot_hooks"] {
                try await transaction.query(
                    "DELETE FROM \(unescaped: table) WHERE bot_id IN (SELECT id FROM auth_bots WHERE owner_id = \(owner.rawValue))")
            }
        }
    }

    public func add(_ token: BotToken, digest: String) async throws {
        let scope = String(decoding: try JSONEncoder().encode(token.scope), as: UTF8.self)
        try await database.query(
            """
            INSERT INTO auth_bot_tokens (id, digest, bot_id, scope, created_at, expires_at)
            VALUES (\(token.id), \(digest), \(token.bot.rawValue), \(scope), \(token.createdAt.timeIntervalSince1970),
                    \(token.expiresAt.timeIntervalSince1970))
            """)
    }

    public func add(_ hook: Hook, digest: String) async throws {
        try await database.query(
            """
            INSERT INTO auth_bot_hooks (id, digest, bot_id, conversation_id, created_at)
            VALUES (\(hook.id), \(digest), \(hook.bot.rawValue), \(hook.conversationID.rawValue), \(hook.createdAt.timeIntervalSince1970))
            """)
    }

    public func tokens(of owner: UserID) async throws -> [BotToken] {
        try await database.query(
            "\(unescaped: Self.tokenColumns) WHERE bot_id IN (SELECT id FROM auth_bots WHERE owner_id = \(owner.rawValue)) ORDER BY created_at, id"
        ).map(Self.token)
    }

    public func hooks(of owner: UserID) async throws -> [Hook] {
        try await database.query(
            "\(unescaped: Self.hookColumns) WHERE bot_id IN (SELECT id FROM auth_bots WHERE owner_id = \(owner.rawValue)) ORDER BY created_at, id"
        ).map { try Self.hook($0).hook }
    }

    public func token(digest: String) async throws -> BotToken? {
        try await database.query("\(unescaped: Self.tokenColumns) WHERE digest = \(digest)").first.map(Self.token)
    }

    public func hook(_ id: String) async throws -> (hook: Hook, digest: String)? {
        try await database.query("\(unescaped: Self.hookColumns) WHERE id = \(id)").first.map(Self.hook)
    }

    public func removeCredential(_ id: String, of owner: UserID) async throws -> Bool {
        try await database.write(ordered: false) { transaction in
            var removed = 0
            for table in ["auth_bot_tokens", "auth_bot_hooks"] {
                removed += try await transaction.query(
                    """
                    DELETE FROM \(unescaped: table) WHERE id = \(id) AND bot_id IN (SELECT id FROM auth_bots WHERE owner_id = \(owner.rawValue))
                    RETURNING id
                    """
                ).count
            }
            return removed > 0
        }
    }

    private static let botColumns = "SELECT id, name, owner_id, created_at FROM auth_bots"
    private static let tokenColumns = "SELECT id, bot_id, scope, created_at, expires_at FROM auth_bot_tokens"
    private static let hookColumns = "SELECT id, conversation_id, bot_id, created_at, digest FROM auth_bot_hooks"

    private static func bot(_ row: PostgresRow) throws -> Bot {
        let (id, name, owner, createdAt) = try row.decode((String, String, String, Double).self)
        return Bot(id: UserID(id), name: name, owner: UserID(owner), createdAt: Date(timeIntervalSince1970: createdAt))
    }

    private static func token(_ row: PostgresRow) throws -> BotToken {
        let (id, bot, scope, createdAt, expiresAt) = try row.decode((String, String, String, Double, Double).self)
        return BotToken(
            id: id, bot: UserID(bot), scope: try JSONDecoder().decode(BotScope.self, from: Data(scope.utf8)),
            createdAt: Date(timeIntervalSince1970: createdAt), expiresAt: Date(timeIntervalSince1970: expiresAt))
    }

    private static func hook(_ row: PostgresRow) throws -> (hook: Hook, digest: String) {
        let (id, conversation, bot, createdAt, digest) = try row.decode((String, String, String, Double, String).self)
        return (
            Hook(id: id, conversationID: ConversationID(conversation), bot: UserID(bot), createdAt: Date(timeIntervalSince1970: createdAt)), digest
        )
    }
}
