import Foundation
import Kernel

/// What an API token or a webhook's secret stands for, decided once for every store and the
/// server: a bot acting within its grant, while the token has not expired, the bot is kept and
/// its owner's account stands (not suspended, not deleted). Anything else answers as an unknown
/// credential would, so that a guess learns nothing.
public struct BotCredentials: Sendable {
    private let store: any BotStore
    private let accounts: any AccountStore
    private let digest: any TokenDigest
    private let clock: any WallClock

    /// Reads credentials from `store`, owners' standing from `accounts`.
    public init(store: any BotStore, accounts: any AccountStore, digest: any TokenDigest, clock: any WallClock) {
        self.store = store
        self.accounts = accounts
        self.digest = digest
        self.clock = clock
    }

    /// The bot API token `token` acts as, and its grant.
    /// - Throws: `.notSignedIn` for an unknown, revoked or expired token, or one whose owner no
    ///   longer stands.
    public func principal(forToken token: String) async throws -> (UserID, Grant) {
        guard let found = try await store.token(digest: digest.digest(token)), found.expiresAt > clock.now() else {
            throw AppError.notSignedIn
        }
        return (found.bot, .bot(owner: try await standingOwner(of: found.bot, or: AppError.notSignedIn), scope: found.scope))
    }

    /// What a post to hook `id` with `secret` posts as: its bot, allowed to send in the hook's
    /// conversation alone, and that conversation.
    /// - Throws: `BotRules.noHook` for an unknown hook, a wrong secret or an owner who no longer
    ///   stands, alike.
    public func poster(hook id: String, secret: String) async throws -> Poster {
        guard BotRules.mayBeHook(id: id, secret: secret), let found = try await store.hook(id), found.digest == digest.digest(secret) else {
            throw BotRules.noHook
        }
        let hook = found.hook
        let owner = try await standingOwner(of: hook.bot, or: BotRules.noHook)
        return Poster(user: hook.bot, grant: .bot(owner: owner, scope: BotScope(abilities: [.send], conversations: [hook.conversationID])))
    }

    /// What a hook posts as: its bot, allowed to send in its one conversation.
    public struct Poster: Sendable {
        /// The hook's bot.
        public let user: UserID
        /// Sending in the hook's conversation alone.
        public let grant: Grant

        /// The conversation it posts into.
        public var conversationID: ConversationID? { grant.soleConversation }

        /// As a caller resolves.
        public var principal: (UserID, Grant) { (user, grant) }
    }

    /// The owner of `bot` while its account stands; else `refusal`.
    private func standingOwner(of bot: UserID, or refusal: AppError) async throws -> UserID {
        guard let owner = try await store.bot(bot)?.owner, let record = try await accounts.record(of: owner), record.suspendedAt == nil else {
            throw refusal
        }
        return owner
    }
}
