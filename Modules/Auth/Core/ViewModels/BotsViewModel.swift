import Foundation
import Kernel
import Observation

/// A person's bots, their API tokens and webhooks (`messageai bots`, `tokens`, `hooks`).
@MainActor
@Observable
public final class BotsViewModel {
    /// The caller's bots.
    public private(set) var bots: Loadable<[Bot]> = .idle
    /// Their tokens.
    public private(set) var tokens: Loadable<[BotToken]> = .idle
    /// Their hooks.
    public private(set) var hooks: Loadable<[Hook]> = .idle
    /// The outcome of the last action.
    public private(set) var lastAction: Loadable<Outcome> = .idle

    /// What an action gave.
    public enum Outcome: Sendable, Equatable {
        /// A bot made.
        case created(Bot)
        /// A token made, with the token, shown only now.
        case token(Issued<BotToken>)
        /// A hook made, with the URL a tool posts to, shown only now.
        case hook(Issued<Hook>, url: String)
        /// Done: what it was said of.
        case done(String)
    }

    private let service: any BotService
    private let server: String?

    /// Creates the view model over the caller's bot service; `server` is the base URL hooks are
    /// posted to (`nil` where this device does not know it: a local store).
    public init(service: any BotService, server: String?) {
        self.service = service
        self.server = server
    }

    /// Loads the bots.
    public func loadBots() async {
        bots = .loading
        bots = await .from { try await service.bots() }
    }

    /// Loads the tokens, and the bots they are of.
    public func loadTokens() async {
        await loadBots()
        tokens = .loading
        tokens = await .from { try await service.tokens() }
    }

    /// Loads the hooks, and the bots they are of.
    public func loadHooks() async {
        await loadBots()
        hooks = .loading
        hooks = await .from { try await service.hooks() }
    }

    /// Makes a bot named `name`.
    public func create(named name: String) async { await act { .created(try await service.createBot(named: name)) } }

    /// Deletes bot `reference`.
    public func delete(_ reference: String) async {
        await act {
            try await service.deleteBot(reference)
            return .done("deleted bot \(reference)")
        }
    }

    /// Brings bot `reference` into `conversationID`.
    public func add(_ reference: String, to conversationID: ConversationID) async {
        await act {
            try await service.addBot(reference, to: conversationID)
            return .done("\(reference) joined \(conversationID)")
        }
    }

    /// Makes a token for bot `reference`.
    public func createToken(for reference: String, scope: BotScope, days: Int?) async {
        await act { .token(try await service.createToken(for: reference, scope: scope, days: days)) }
    }

    /// Makes a hook into `conversationID` as bot `reference`, or (`nil`) as the caller's bot
    /// `BotRules.hookBot`, made first if they have none.
    public func createHook(in conversationID: ConversationID, as reference: String?) async {
        let server = server.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? ""
        await act {
            if reference == nil, try await !service.bots().contains(where: { $0.name == BotRules.hookBot }) {
                _ = try await service.createBot(named: BotRules.hookBot)
            }
            let issued = try await service.createHook(in: conversationID, as: reference ?? BotRules.hookBot)
            return .hook(issued, url: server + issued.credential.path(secret: issued.secret))
        }
    }

    /// Revokes token or hook `id`.
    public func revoke(_ id: String) async {
        await act {
            try await service.revoke(id)
            return .done("revoked \(id)")
        }
    }

    /// The name of bot `id`, as the last load found it, else its id.
    public func name(of id: UserID) -> String { bots.value?.first { $0.id == id }?.name ?? id.rawValue }

    private func act(_ action: () async throws -> Outcome) async {
        lastAction = .loading
        lastAction = await .from(action)
    }
}
