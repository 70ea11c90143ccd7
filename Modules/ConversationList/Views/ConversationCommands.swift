import ArgumentParser
import CLIKit
import ConversationList
import Kernel

/// `messageai chats [new]`
struct ChatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chats", abstract: "List your conversations, or start one.",
        subcommands: [ListChatsCommand.self, NewChatCommand.self], defaultSubcommand: ListChatsCommand.self)
}

/// `messageai chats list`: most recent activity first, with unread counts.
struct ListChatsCommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List conversations, most recent first.")
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        let model = try context.factory(ConversationListFactory.self).makeConversationListViewModel()
        await model.load()
        let rows = try context.require(model.list)
        try context.emitEach(rows, text: ConversationText.rows(rows, console: context.console))
    }
}

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
        var ids: [UserID] = []
        for user in users { ids.append(try await context.lookup.userID(for: user)) }
        let model = try context.factory(ConversationListFactory.self).makeConversationListViewModel()
        if let title {
            await model.createGroup(title: title, memberIDs: ids)
        } else {
            await model.startConversation(with: ids[0])
        }
        let summary = try context.require(model.created)
        try context.emit(summary, text: ["\(summary.title)  \(summary.id)"])
    }
}
