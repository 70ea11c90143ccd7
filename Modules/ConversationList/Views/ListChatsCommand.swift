import ArgumentParser
import CLIKit
import ConversationList
import Kernel

/// `messageai chats list`: most recent activity first, with unread counts.
struct ListChatsCommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List conversations, most recent first.")
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        let model = try context.factory(ConversationListFactory.self).makeConversationListViewModel()
        await model.load()
        let rows = try context.require(model.list)
        try context.emitEach(rows, text: ConversationText.rows(rows, console: context.console, startHint: "messageai chats new USER"))
    }
}
