import ArgumentParser
import CLIKit
import Kernel
import Search

/// `messageai mentions [--since CURSOR] [--limit N]`
struct MentionsCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "mentions", abstract: "List messages that mention you (@Name), newest last.",
        discussion: """
            Without --since, the newest. Each list ends with the cursor to resume from: --since CURSOR lists the mentions \
            after it, oldest first, so a script that keeps the last cursor sees each mention once. Deleted messages are left out. \
            A message mentions a member when its text holds @ and their display name (or their first name, when no other member's \
            starts so); one message mentions at most \(Validation.maxMentions) people, never the sender and never someone apart from \
            them by a block. --json prints one object per mention, each with its cursor.
            """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "Only the mentions after this cursor (as the last list printed).") var since: String?
    @Option(help: "At most this many (1–\(SearchRules.maxLimit)).") var limit = SearchRules.defaultLimit

    func validate() throws {
        guard (1...SearchRules.maxLimit).contains(limit) else { throw ValidationError("--limit must be from 1 to \(SearchRules.maxLimit)") }
    }

    func run(in context: CLIContext) async throws {
        let since = try since.map(SearchRules.cursor)
        let model = try context.factory(SearchFactory.self).makeMentionsViewModel()
        await model.load(since: since, limit: limit)
        let page = try context.require(model.page)
        let lines = context.json ? [] : await SearchText.lines(page.mentions, lookup: context.lookup, console: context.console)
        let resume = page.hasMore ? "More: --since \(page.next)" : "Next time: --since \(page.next)"
        try context.emitEach(
            page.mentions.map(SearchText.JSONRow.init),
            text: (page.mentions.isEmpty ? [since == nil ? "Nobody has mentioned you." : "No new mentions."] : lines)
                + [context.console.styled(resume, .dim)])
    }
}
