import Foundation
import Kernel

/// A person's bots over a store, written once for memory, SQLite and PostgreSQL: each new bot,
/// token and hook paid from the caller's budget of new conversations, tokens and secrets kept as
/// digests.
public struct StoredBotService: BotService {
    private let store: any BotStore
    private let membership: any BotMembership
    private let digest: any TokenDigest
    private let clock: any WallClock
    private let caller: Caller
    private let budget: UsageBudget
    private let revoked: @Sendable () -> Void

    /// The service for `caller` over `store`, bringing bots into conversations through
    /// `membership`; `revoked` hears of each token or bot removed (a cache of verified tokens
    /// forgets them).
    public init(
        store: any BotStore, membership: any BotMembership, digest: any TokenDigest, clock: any WallClock, caller: Caller,
        budget: UsageBudget = .unlimited, revoked: @escaping @Sendable () -> Void = {}
    ) {
        self.store = store
        self.membership = membership
        self.digest = digest
        self.clock = clock
        self.caller = caller
        self.budget = budget
        self.revoked = revoked
    }

    public func createBot(named name: String) async throws -> Bot {
        let me = try await caller.id()
        let name = try BotRules.name(name)
        guard try await store.bots(of: me).count < BotRules.maxBotsPerOwner else { throw BotRules.tooManyBots }
        try budget.spend(.conversation, by: me)
        let bot = Bot(id: .random(), name: name, owner: me, createdAt: clock.now())
        guard try await store.add(bot) else { throw BotRules.nameTaken(name) }
        return bot
    }

    public func bots() async throws -> [Bot] { try await store.bots(of: try await caller.id()) }

    public func deleteBot(_ reference: String) async throws {
        let bot = try await bot(reference, of: try await caller.id())
        try await membership.dismiss(bot.id)
        try await store.remove(bot.id)
        revoked()
    }

    public func addBot(_ reference: String, to conversationID: ConversationID) async throws {
        let me = try await caller.id()
        let bot = try await bot(reference, of: me)
        try budget.spend(.conversation, by: me)
        try await membership.admit(bot.id, to: conversationID, by: me)
    }

    public func createToken(for reference: String, scope: BotScope, days: Int?) async throws -> Issued<BotToken> {
        let me = try await caller.id()
        let bot = try await bot(reference, of: me)
        let lifetime = try BotRules.lifetime(days: days)
        let scope = try BotRules.checked(scope)
        try await spendOnCredential(by: me)
        let (secret, now) = (BotRules.newToken(), clock.now())
        let token = BotToken(id: "t" + UserID.random().rawValue, bot: bot.id, scope: scope, createdAt: now, expiresAt: now + lifetime)
        try await store.add(token, digest: digest.digest(secret))
        return Issued(token, secret: secret)
    }

    public func tokens() async throws -> [BotToken] { try await store.tokens(of: try await caller.id()) }

    public func createHook(in conversationID: ConversationID, as reference: String) async throws -> Issued<Hook> {
        let me = try await caller.id()
        let bot = try await bot(reference, of: me)
        try await spendOnCredential(by: me)
        try await membership.admit(bot.id, to: conversationID, by: me)
        let hook = Hook(id: "h" + UserID.random().rawValue, conversationID: conversationID, bot: bot.id, createdAt: clock.now())
        let secret = SessionToken.generate()
        try await store.add(hook, digest: digest.digest(secret))
        return Issued(hook, secret: secret)
    }

    public func hooks() async throws -> [Hook] { try await store.hooks(of: try await caller.id()) }

    public func revoke(_ id: String) async throws {
        guard try await store.removeCredential(id, of: try await caller.id()) else { throw BotRules.noCredential(id) }
        revoked()
    }

    /// The caller's bot named or numbered `reference`.
    private func bot(_ reference: String, of owner: UserID) async throws -> Bot {
        guard let bot = try await store.bots(of: owner).first(where: { $0.name == reference || $0.id.rawValue == reference }) else {
            throw BotRules.noBot(reference)
        }
        return bot
    }

    /// One new token or hook, within the caller's bounds.
    private func spendOnCredential(by me: UserID) async throws {
        let kept = try await store.tokens(of: me).count + store.hooks(of: me).count
        guard kept < BotRules.maxCredentialsPerOwner else { throw BotRules.tooManyCredentials }
        try budget.spend(.conversation, by: me)
    }
}
