import ArgumentParser
import CLIKit
import Chat
import Kernel
import Observation

/// `messageai tail [CHAT] [--count N] [--since CURSOR]`
struct TailCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail", abstract: "Print messages (with --json, every event) as they arrive.",
        discussion: """
            Runs until interrupted (Ctrl-C) or until --count messages have arrived. With --json it prints \
            every event you may see, one JSON object per line (version 1, see docs/protocol.md): \
            messages, conversations you were added to, your read markers and new names; each carries its \
            "cursor". With CHAT, only that conversation's: its messages (with --json, its events in the \
            same schema: edits, deletions, reactions, read markers, members joining or leaving). \
            --since CURSOR first prints what was stored after it, then live events: a script \
            that stopped resumes with no gap and no repeat.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or name: only its messages (--json: events). All your conversations when left out.") var chat: String?
    @Option(help: "Stop after this many messages (with --json, events); at least 1.") var count: Int?
    @Option(help: ArgumentHelp("Start right after this cursor (as tail --json prints it).", valueName: "cursor")) var since: String?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
    }

    func run(in context: CLIContext) async throws {
        let cursor = try since.map(EventCursor.init(parsing:))
        var id: ConversationID?
        if let chat { id = try await context.lookup.conversationID(for: chat) }
        let model = try context.factory(ChatFactory.self).makeLiveFeedViewModel(conversationID: id, after: cursor, changes: context.json)
        let me = try await context.lookup.currentUserID()
        var printed = 0
        func printNew() async throws {
            let fresh = Array(model.received.dropFirst(printed))
            printed += fresh.count
            let messages = fresh.compactMap(\.message)
            let names = context.json ? [:] : try await context.lookup.displayNames(of: Array(Set(messages.map(\.senderID))))
            try context.emitEach(fresh, text: MessageText.lines(messages.map(Timeline.Entry.init), names: names, me: me, console: context.console))
        }
        let printer = Task { for await _ in Observations({ model.received.count }) { try? await printNew() } }
        // Live events that keep failing say why on standard error, and say so once they come again.
        let troubles = Task {
            var said = false
            for await trouble in Observations({ model.trouble }) where trouble != nil || said {
                said = trouble != nil
                context.console.printError("messageai: " + (trouble ?? "live updates are back"))
            }
        }
        await model.run(limit: count)
        printer.cancel()
        troubles.cancel()
        // The printer may be half-way through a batch: let it finish, so nothing prints twice or out of order.
        await printer.value
        try await printNew()
        if let error = model.connection.error { throw error }
        // The feed ends early only when the session ended (revoked elsewhere): say so.
        if count.map({ printed < $0 }) ?? true, try await context.lookup.currentUserID() == nil { throw AppError.notSignedIn }
    }
}
