import ArgumentParser
import Auth
import CLIKit
import Foundation
import Kernel

/// `messageai bots create|list|delete|add`: accounts a person keeps for programs.
struct BotsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bots", abstract: "Bots you keep for programs: they post through API tokens and webhooks, and show as bots.",
        discussion: """
            A bot never signs in: give it a token (`messageai tokens create --bot NAME`) or a webhook (`messageai hooks create CHAT --bot NAME`). \
            It acts only in groups you brought it into, and only while you are a member there; if your account is suspended or deleted, \
            its tokens and hooks stop working.
            """,
        subcommands: [Create.self, List.self, Delete.self, Add.self], defaultSubcommand: List.self)

    struct Create: FeatureCommand {
        static let configuration = CommandConfiguration(abstract: "Make a bot (at most \(BotRules.maxBotsPerOwner)).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "its name, as others see it (with \"(bot)\" after it)") var name: String

        func run(in context: CLIContext) async throws {
            try await BotsCommand.act(in: context) { await $0.create(named: name) }
        }
    }

    struct List: FeatureCommand {
        static let configuration = CommandConfiguration(abstract: "List your bots.")
        @OptionGroup var global: GlobalOptions

        func run(in context: CLIContext) async throws {
            let model = try context.factory(AuthFactory.self).makeBotsViewModel()
            await model.loadBots()
            let bots = try context.require(model.bots)
            try context.emitEach(bots.map(BotRow.init), text: bots.isEmpty ? ["No bots."] : bots.map { TerminalText.line("\($0.name) (\($0.id))") })
        }
    }

    struct Delete: FeatureCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a bot with its tokens and hooks; what it posted stays.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "the bot's name or id") var bot: String

        func run(in context: CLIContext) async throws {
            try await BotsCommand.act(in: context) { await $0.delete(bot) }
        }
    }

    struct Add: FeatureCommand {
        static let configuration = CommandConfiguration(abstract: "Bring a bot of yours into a group you are in.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "the bot's name or id") var bot: String
        @Argument(help: "the group's id or title") var chat: String

        func run(in context: CLIContext) async throws {
            let conversation = try await context.lookup.conversationID(for: chat)
            try await BotsCommand.act(in: context) { await $0.add(bot, to: conversation) }
        }
    }

    /// A bot as `--json` lists it: its kind said, as wherever a name appears.
    struct BotRow: Encodable {
        let id: UserID
        let name: String
        let kind = "bot"
        let createdAt: Date

        init(_ bot: Bot) {
            id = bot.id
            name = bot.name
            createdAt = bot.createdAt
        }
    }

    /// Runs one action of the bots view model and shows what it gave. Tokens and secrets are
    /// shown here, once, and never again.
    @MainActor static func act(in context: CLIContext, _ action: (BotsViewModel) async -> Void) async throws {
        let model = try context.factory(AuthFactory.self).makeBotsViewModel()
        await action(model)
        switch try context.require(model.lastAction) {
        case .created(let bot): try context.emit(BotRow(bot), text: [TerminalText.line("Made bot \(bot.name) (\(bot.id)).")])
        case .token(let issued):
            try context.emit(
                ["token": issued.secret, "id": issued.credential.id],
                text: [
                    issued.secret,
                    "token \(issued.credential.id): \(issued.credential.scope.description), until \(issued.credential.expiresAt.formatted(.iso8601)). "
                        + "Keep it secret: it is shown only now.",
                ])
        case .hook(let issued, let url):
            try context.emit(
                ["url": url, "id": issued.credential.id],
                text: [url, "hook \(issued.credential.id): post Slack-style JSON to that URL. Keep it secret: it is shown only now."])
        case .done(let said): try context.emit(["done": said], text: [TerminalText.line(said)])
        }
    }
}
