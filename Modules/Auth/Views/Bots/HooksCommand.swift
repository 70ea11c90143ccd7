import ArgumentParser
import Auth
import CLIKit
import Foundation
import Kernel

/// `messageai hooks create|list|delete`: incoming webhooks.
struct HooksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hooks", abstract: "Incoming webhooks: a URL that tools (Alertmanager, Grafana, CI) post to, in Slack's format.",
        discussion: """
            A hook posts into one group as one of your bots, within its own budget (429 with Retry-After past it). Its URL is the only key: \
            it is shown once; anyone who has it can post there, and nowhere else. Delete a leaked one with `messageai hooks delete ID`.
            """,
        subcommands: [Create.self, List.self, Delete.self], defaultSubcommand: List.self)

    struct Create: FeatureCommand {
        static let configuration = CommandConfiguration(abstract: "Make a hook into a group you are in; its URL is printed once.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "the group's id or title") var chat: String
        @Option(help: "the bot it posts as (default: your bot \"\(BotRules.hookBot)\", made if you have none)") var bot: String?

        func run(in context: CLIContext) async throws {
            let conversation = try await context.lookup.conversationID(for: chat)
            try await BotsCommand.act(in: context) { await $0.createHook(in: conversation, as: bot) }
        }
    }

    struct List: FeatureCommand {
        static let configuration = CommandConfiguration(abstract: "List your bots' hooks (never their secrets).")
        @OptionGroup var global: GlobalOptions

        func run(in context: CLIContext) async throws {
            let model = try context.factory(AuthFactory.self).makeBotsViewModel()
            await model.loadHooks()
            let hooks = try context.require(model.hooks)
            try context.emitEach(
                hooks,
                text: hooks.isEmpty
                    ? ["No hooks."] : hooks.map { TerminalText.line("\($0.id)  \(model.name(of: $0.bot))  into \($0.conversationID)") })
        }
    }

    struct Delete: FeatureCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a hook at once: its URL answers as an unknown one.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "the hook's id (from list)") var id: String

        func run(in context: CLIContext) async throws {
            try await BotsCommand.act(in: context) { await $0.revoke(id) }
        }
    }
}
