import Auth
import AuthAPI
import Kernel
import RemoteClient

/// A person's bots, tokens and hooks on the MessageAI server, through its bots API.
public struct RemoteBotService: BotService {
    private let connection: RemoteConnection
    private let caller: Caller

    /// Creates the service for `caller` over the process's connection.
    public init(connection: RemoteConnection, caller: Caller) {
        self.connection = connection
        self.caller = caller
    }

    public func createBot(named name: String) async throws -> Bot {
        try await connection.call(BotAPI.createBot, body: BotName(name), as: caller)
    }

    public func bots() async throws -> [Bot] { try await connection.call(BotAPI.bots, body: NoContent(), as: caller).bots }

    public func deleteBot(_ reference: String) async throws {
        _ = try await connection.call(BotAPI.deleteBot, body: BotReference(reference), as: caller)
    }

    public func addBot(_ reference: String, to conversationID: ConversationID) async throws {
        _ = try await connection.call(BotAPI.addBot, body: BotPlacement(bot: reference, conversation: conversationID), as: caller)
    }

    public func createToken(for reference: String, scope: BotScope, days: Int?) async throws -> Issued<BotToken> {
        try await connection.call(BotAPI.createToken, body: TokenRequest(bot: reference, scope: scope, days: days), as: caller).issued
    }

    public func tokens() async throws -> [BotToken] { try await connection.call(BotAPI.tokens, body: NoContent(), as: caller).tokens }

    public func createHook(in conversationID: ConversationID, as reference: String) async throws -> Issued<Hook> {
        try await connection.call(BotAPI.createHook, body: BotPlacement(bot: reference, conversation: conversationID), as: caller).issued
    }

    public func hooks() async throws -> [Hook] { try await connection.call(BotAPI.hooks, body: NoContent(), as: caller).hooks }

    public func revoke(_ id: String) async throws {
        _ = try await connection.call(BotAPI.revoke, body: CredentialID(id), as: caller)
    }
}
