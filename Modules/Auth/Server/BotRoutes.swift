import Auth
import AuthAPI
import Kernel
import ServerSupport

/// The bots API's routes: a person's bots, tokens and hooks answered by their `BotService`, and
/// tools' posts to hooks, handed to `post`. A post needs no session, so an address that keeps
/// naming hooks that are not (guessing) is held back: `guesses` counts each post to an unknown
/// hook or with a wrong secret, 30 at once, then one a second (429 with `Retry-After` past it);
/// a tool whose hook exists never spends from it.
public struct BotRoutes: Sendable {
    private let bots: @Sendable (Caller) -> any BotService
    private let post: @Sendable (PathParameters.Hook, SlackMessage) async throws -> Void
    private let guesses = RateLimiter(burst: BotRules.hookGuessesAtOnce, refill: .seconds(1))

    /// Creates the routes; `bots` builds the bot service of a caller, `post` posts a tool's
    /// message through a hook (refusing an unknown hook and a wrong secret alike).
    public init(
        bots: @escaping @Sendable (Caller) -> any BotService, post: @escaping @Sendable (PathParameters.Hook, SlackMessage) async throws -> Void
    ) {
        self.bots = bots
        self.post = post
    }

    /// Registers every bots endpoint.
    public func add(to routes: APIRoutes) {
        let (bots, post, guesses) = (bots, post, guesses)
        routes.add(BotAPI.bots) { call in BotList(try await bots(call.caller).bots()) }
        routes.add(BotAPI.createBot) { call in try await bots(call.caller).createBot(named: call.body.name) }
        routes.add(BotAPI.deleteBot) { call in
            try await bots(call.caller).deleteBot(call.body.bot)
            return NoContent()
        }
        routes.add(BotAPI.addBot) { call in
            try await bots(call.caller).addBot(call.body.bot, to: call.body.conversation)
            return NoContent()
        }
        routes.add(BotAPI.tokens) { call in TokenList(try await bots(call.caller).tokens()) }
        routes.add(BotAPI.createToken) { call in
            IssuedTokenReply(try await bots(call.caller).createToken(for: call.body.bot, scope: call.body.scope, days: call.body.days))
        }
        routes.add(BotAPI.hooks) { call in HookList(try await bots(call.caller).hooks()) }
        routes.add(BotAPI.createHook) { call in IssuedHookReply(try await bots(call.caller).createHook(in: call.body.conversation, as: call.body.bot))
        }
        routes.add(BotAPI.revoke) { call in
            try await bots(call.caller).revoke(call.body.id)
            return NoContent()
        }
        routes.add(BotAPI.post) { call in
            let client = ClientAddress.limitKey(call.clientAddress)
            if let wait = guesses.spend(client) {
                throw RetryLater(
                    AppError(.rateLimited, "too many posts to hooks that are not from this address; try again in \(wait) s"), seconds: wait)
            }
            do {
                try await post(call.path, call.body)
            } catch let error as AppError where error == BotRules.noHook {
                throw error
            } catch {
                guesses.refund(client)
                throw error
            }
            guesses.refund(client)
            return NoContent()
        }
    }
}
