import Foundation
import Kernel

// arch-check: allow naming.in-memory-impl: StoredBotService over InMemoryBotStore is the in-memory one.
/// A person's bots, their API tokens and their incoming webhooks. Only a person may call it (a
/// bot's own token is refused). Implemented by `StoredBotService` and `RemoteBotService`.
public protocol BotService: Sendable {
    /// Makes a bot named `name`, kept by the caller.
    /// - Throws: `.invalidInput` for a bad name; `.conflict` for a name the caller's bots have, or
    ///   past `BotRules.maxBotsPerOwner`.
    func createBot(named name: String) async throws -> Bot

    /// The caller's bots, by name.
    func bots() async throws -> [Bot]

    /// Deletes the caller's bot `reference` (its name or id) with its tokens and hooks; what it
    /// posted stays, under its name.
    /// - Throws: `.notFound` for no such bot of the caller's.
    func deleteBot(_ reference: String) async throws

    /// Brings the caller's bot `reference` into `conversationID`, where the caller is a member.
    /// - Throws: `.notFound` for no such bot, or a conversation the caller is not in.
    func addBot(_ reference: String, to conversationID: ConversationID) async throws

    /// Makes an API token for the caller's bot `reference`, allowing `scope`, for `days` (nil:
    /// `BotRules.defaultLifetime`). The token is in the answer and nowhere else, ever.
    /// - Throws: `.notFound` for no such bot; `.invalidInput` for a bad lifetime; `.conflict`
    ///   past `BotRules.maxCredentialsPerOwner`.
    func createToken(for reference: String, scope: BotScope, days: Int?) async throws -> Issued<BotToken>

    /// The tokens of the caller's bots (never the tokens themselves).
    func tokens() async throws -> [BotToken]

    /// Makes an incoming webhook posting into `conversationID` as the caller's bot `reference`,
    /// which is brought into the conversation; its secret is in the answer and nowhere else.
    /// - Throws: as `addBot` and `createToken` do.
    func createHook(in conversationID: ConversationID, as reference: String) async throws -> Issued<Hook>

    /// The hooks of the caller's bots (never their secrets).
    func hooks() async throws -> [Hook]

    /// Revokes the token or deletes the hook `id` of one of the caller's bots, at once.
    /// - Throws: `.notFound` for none of the caller's.
    func revoke(_ id: String) async throws
}
