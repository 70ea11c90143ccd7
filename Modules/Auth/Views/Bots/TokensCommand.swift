import ArgumentParser
import Auth
import CLIKit
import Foundation
import Kernel

/// `messageai tokens create|list|revoke`: bots' API tokens.
struct TokensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens", abstract: "API tokens for your bots: scoped, expiring, shown once, kept as digests.",
        discussion: """
            A script uses one with `--token-stdin` or MESSAGEAI_TOKEN instead of signing in: `messageai send`, `history`, `tail --json --since` \
            and `list` then act as the bot, within the token's scope. A revoked token is refused within 2 s on every server instance.
            """,
        subcommands: [Create.self, List.self, Revoke.self], defaultSubcommand: List.self)

    struct Create: FeatureCommand {
        static let configuration = CommandConfiguration(abstract: "Make a token for a bot of yours; it is printed once.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "the bot's name or id") var bot: String
        @Option(
            help: ArgumentHelp(
                "account (all the bot's conversations), or read:CHAT / send:CHAT, repeated or comma-separated (CHAT: id or title)",
                valueName: "scope")) var scope: [String]
        @Option(help: "days it lasts, 1–365 (default 90)") var days: Int?

        func run(in context: CLIContext) async throws {
            let scope = try await BotRules.scope(scope) { try await context.lookup.conversationID(for: $0) }
            try await BotsCommand.act(in: context) { await $0.createToken(for: bot, scope: scope, days: days) }
        }
    }

    struct List: FeatureCommand {
        static let configuration = CommandConfiguration(abstract: "List your bots' tokens (never the tokens themselves).")
        @OptionGroup var global: GlobalOptions

        func run(in context: CLIContext) async throws {
            let model = try context.factory(AuthFactory.self).makeBotsViewModel()
            await model.loadTokens()
            let tokens = try context.require(model.tokens)
            try context.emitEach(
                tokens,
                text: tokens.isEmpty
                    ? ["No tokens."]
                    : tokens.map {
                        TerminalText.line("\($0.id)  \(model.name(of: $0.bot))  \($0.scope.description)  until \($0.expiresAt.formatted(.iso8601))")
                    })
        }
    }

    struct Revoke: FeatureCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token (or delete a hook) at once.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "the token's id (from list)") var id: String

        func run(in context: CLIContext) async throws {
            try await BotsCommand.act(in: context) { await $0.revoke(id) }
        }
    }
}
