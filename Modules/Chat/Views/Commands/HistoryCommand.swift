import ArgumentParser
import CLIKit
import Chat
import Kernel

/// `messageai history CHAT [--limit N] [--before MESSAGE_ID]`
struct HistoryCommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "Print a conversation's messages, oldest first.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name.") var chat: String
    @Option(help: "How many messages (1–500).") var limit = 50
    @Option(help: "Only messages older than this message id.") var before: String?

    func validate() throws {
        guard (1...500).contains(limit) else { throw ValidationError("--limit must be from 1 to 500") }
    }

    func run(in context: CLIContext) async throws {
        let id = try await context.lookup.conversationID(for: chat)
        let model = try context.factory(ChatFactory.self).makeChatViewModel(conversationID: id)
        await model.open(limit: limit, before: before.map(MessageID.init(rawValue:)))
        let messages = try context.require(model.timeline).entries.compactMap(\.message)
        let names = context.json ? [:] : try await context.lookup.displayNames(of: Array(Set(messages.map(\.senderID))))
        let me = try await context.lookup.currentUserID()
        try context.emitEach(
            messages.map(MessageText.JSONRow.init),
            text: MessageText.lines(messages.map(Timeline.Entry.init), names: names, me: me, console: context.console))
    }
}
