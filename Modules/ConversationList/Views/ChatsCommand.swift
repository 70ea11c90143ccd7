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

/// `messageai chats list [--limit N] [--after ID]`: most recent activity first, with unread
/// counts, a page at a time.
struct ListChatsCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List conversations, most recent first, a page at a time.",
        discussion:
            "Rows are numbered from the top of the list (CHAT may be such a number); with --after, the page after that conversation, unnumbered.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Rows on the page, 1–500.") var limit = ConversationRules.defaultPage
    @Option(help: ArgumentHelp("Start after this conversation (its id, as the last page ended).", valueName: "id")) var after: String?

    func validate() throws {
        guard (1...ConversationRules.maxPage).contains(limit) else { throw ValidationError("--limit must be from 1 to \(ConversationRules.maxPage)") }
    }

    func run(in context: CLIContext) async throws {
        let model = try context.factory(ConversationListFactory.self).makeConversationListViewModel(pageSize: limit)
        if let after {
            await model.loadPage(after: try Validation.identifier(after, field: "--after"))
        } else {
            await model.load()
        }
        let rows = try context.require(model.list)
        let more = model.hasMore ? [context.console.styled("(more: messageai chats --after \(rows.last?.id.rawValue ?? ""))", .dim)] : []
        try context.emitEach(
            rows,
            text: (after == nil
                ? ConversationText.rows(rows, console: context.console, startHint: "messageai chats new USER")
                : rows.map { ConversationText.row($0, number: nil, console: context.console) }) + more)
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
        let ids = try await context.lookup.userIDs(for: users)
        let model = try context.factory(ConversationListFactory.self).makeConversationListViewModel()
        await model.startConversation(with: ids, title: title)
        let summary = try context.require(model.created)
        try context.emit(
            summary,
            text: [TerminalText.line(summary.title) + "  \(summary.id)"]
                + ConversationText.notInvited(summary, references: users, ids: ids))
    }
}
