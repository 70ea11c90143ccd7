import Foundation
import Kernel

/// Bots, their API tokens and their incoming webhooks, as `StoredBotService` keeps them: tokens
/// and hook secrets by digest alone. Memory, SQLite and PostgreSQL implement it; it decides nothing.
public protocol BotStore: Sendable {
    /// Stores `bot` and its profile (shown as a bot) at once: false, and nothing stored, when its
    /// owner keeps a bot of that name.
    func add(_ bot: Bot) async throws -> Bool

    /// The bots `owner` keeps, by name.
    func bots(of owner: UserID) async throws -> [Bot]

    /// Bot `id`, or `nil`.
    func bot(_ id: UserID) async throws -> Bot?

    /// Removes bot `id` with its tokens and hooks (its account is deleted as any other is).
    func remove(_ id: UserID) async throws

    /// Removes every token and hook of the bots `owner` keeps, who is deleted: the bots stay,
    /// silent, their names on what they posted.
    func disable(ownedBy owner: UserID) async throws

    /// Stores `token`, kept by the digest `digest` of its secret.
    func add(_ token: BotToken, digest: String) async throws

    /// Stores `hook`, kept by the digest `digest` of its secret.
    func add(_ hook: Hook, digest: String) async throws

    /// The tokens of the bots `owner` keeps, oldest first.
    func tokens(of owner: UserID) async throws -> [BotToken]

    /// The hooks of the bots `owner` keeps, oldest first.
    func hooks(of owner: UserID) async throws -> [Hook]

    /// The token whose secret has the digest `digest`, or `nil`.
    func token(digest: String) async throws -> BotToken?

    /// Hook `id` and the digest of its secret, or `nil`.
    func hook(_ id: String) async throws -> (hook: Hook, digest: String)?

    /// Removes the token or hook `id` of a bot `owner` keeps: false when there is none.
    func removeCredential(_ id: String, of owner: UserID) async throws -> Bool
}

/// Bots kept in process memory: the memory backend and unit tests.
public actor InMemoryBotStore: BotStore {
    private var bots: [UserID: Bot] = [:]
    private var tokens: [String: (token: BotToken, digest: String)] = [:]
    private var hooks: [String: (hook: Hook, digest: String)] = [:]
    private let profiles: any ProfileProvisioning

    /// An empty store whose bots' profiles `profiles` makes.
    public init(profiles: any ProfileProvisioning) { self.profiles = profiles }

    public func add(_ bot: Bot) async throws -> Bool {
        guard !bots.values.contains(where: { $0.owner == bot.owner && $0.name == bot.name }) else { return false }
        bots[bot.id] = bot
        do {
            try await profiles.createProfile(of: bot)
        } catch {
            bots[bot.id] = nil
            throw error
        }
        return true
    }

    public func bots(of owner: UserID) -> [Bot] { bots.values.filter { $0.owner == owner }.sorted { $0.name < $1.name } }

    public func bot(_ id: UserID) -> Bot? { bots[id] }

    public func remove(_ id: UserID) {
        bots[id] = nil
        tokens = tokens.filter { $0.value.token.bot != id }
        hooks = hooks.filter { $0.value.hook.bot != id }
    }

    public func disable(ownedBy owner: UserID) {
        let owned = Set(bots(of: owner).map(\.id))
        tokens = tokens.filter { !owned.contains($0.value.token.bot) }
        hooks = hooks.filter { !owned.contains($0.value.hook.bot) }
    }

    public func add(_ token: BotToken, digest: String) { tokens[token.id] = (token, digest) }

    public func add(_ hook: Hook, digest: String) { hooks[hook.id] = (hook, digest) }

    public func tokens(of owner: UserID) -> [BotToken] {
        tokens.values.map(\.token).filter { bots[$0.bot]?.owner == owner }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    public func hooks(of owner: UserID) -> [Hook] {
        hooks.values.map(\.hook).filter { bots[$0.bot]?.owner == owner }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    public func token(digest: String) -> BotToken? { tokens.values.first { $0.digest == digest }?.token }

    public func hook(_ id: String) -> (hook: Hook, digest: String)? { hooks[id] }

    public func removeCredential(_ id: String, of owner: UserID) -> Bool {
        if let token = tokens[id]?.token, bots[token.bot]?.owner == owner {
            tokens[id] = nil
            return true
        }
        if let hook = hooks[id]?.hook, bots[hook.bot]?.owner == owner {
            hooks[id] = nil
            return true
        }
        return false
    }
}
