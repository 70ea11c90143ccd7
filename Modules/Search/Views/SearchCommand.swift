import ArgumentParser
import CLIKit
import Kernel
import Search

/// `messageai search QUERY [--chat CHAT] [--limit N] [--before CURSOR]`
struct SearchCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Find messages of your conversations.",
        discussion: """
            Every word must be in the message, whatever its case and accents ("cafe" finds "Café"); mess* finds words that \
            start so (at least 2 letters before *); "exact words" finds them in a row. Newest first, a page at a time: --before CURSOR (a result's cursor, as "More:" and --json print it) gives the page after that result. Edited \
            messages are found by their text now; deleted ones never. At most 256 bytes and 8 terms. People: messageai users search.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "What to find.") var query: String
    @Option(help: "Only this conversation (id, title or person's name).") var chat: String?
    @Option(help: "At most this many results (1–\(SearchRules.maxLimit)).") var limit = SearchRules.defaultLimit
    @Option(help: "The page after the result of this cursor.") var before: String?

    func validate() throws {
        guard (1...SearchRules.maxLimit).contains(limit) else { throw ValidationError("--limit must be from 1 to \(SearchRules.maxLimit)") }
    }

    func run(in context: CLIContext) async throws {
        let before = try before.map(SearchRules.cursor)
        let conversation = if let chat { try await context.lookup.conversationID(for: chat) } else { ConversationID?.none }
        let model = try context.factory(SearchFactory.self).makeSearchViewModel()
        await model.search(query, in: conversation, limit: limit, before: before)
        let page = try context.require(model.results)
        let lines = context.json ? [] : await SearchText.lines(page.hits, lookup: context.lookup, console: context.console)
        try context.emitEach(
            page.hits.map(SearchText.JSONRow.init),
            text: page.hits.isEmpty
                ? ["No messages match \(TerminalText.line(AppError.quoting(query)))."]
                : lines + (page.hasMore ? ["More: --before \(page.hits[page.hits.count - 1].cursor)"] : []))
    }
}
