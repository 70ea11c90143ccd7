import ArgumentParser
import CLIKit
import ConversationList
import Kernel

/// `messageai chats new USER... [--title T]`
struct NewChatCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "new", abstract: "Start a conversation.",
        discussion: "One USER without --title opens (or creates) the one-to-one conversation; --title makes a group.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Email addresses or user ids.") var users: [String]
    @Option(help: "Group title; makes a group even with one other member.") var title: String?

    func validate() throws {
        guard !users.isEmpty else { throw ValidationError("name at least one USER") }
        guard title != nil || users.count == 1 else { throw ValidationError("a conversation with several people needs --title") }
    }

    func run(in context: CLIContext) async throws {
        let ids = try await context.lookup.userIDs(for: users)
        let model = try context.factory(ConversationListFactory.self).makeConversationListViewModel()
        await model.startConversation(with: ids, title: title)
        let summary = try context.require(model.created)
        try context.emit(summary, text: [TerminalText.line(summary.title) + "  \(summary.id)"])
    }
}
