import CLIKit
import Kernel
import REPLKit
import Search

/// Search's REPL screen: a line typed here is a search; results are numbered, `/more` shows
/// the next ones and `/go N` opens the conversation of result N. It lists mentions too.
@MainActor
final class SearchScreen: REPLScreen {
    /// What another screen asked for (`/search WORDS`, `/mentions`), shown when this one opens.
    enum Pending {
        case search(String)
        case mentions
    }
    /// What each session (by its context) asked for and has not shown yet: several REPLs may run
    /// in one process (the tests' do), and one's request must not open on another's screen.
    private static var pending: [ObjectIdentifier: Pending] = [:]

    /// Asks the search screen `context` opens next to show `what`.
    static func ask(_ what: Pending, in context: REPLContext) { pending[ObjectIdentifier(context)] = what }

    let prompt = "search> "
    private let context: REPLContext
    private let model: SearchViewModel
    private let mentions: MentionsViewModel
    /// How many results are on the screen.
    private var shown = 0
    /// The conversations of the numbered lines on the screen (results or mentions), for `/go N`.
    private var places: [ConversationID] = []

    init(context: REPLContext) {
        self.context = context
        model = context.factory(SearchFactory.self).makeSearchViewModel()
        mentions = context.factory(SearchFactory.self).makeMentionsViewModel()
    }

    var commands: [REPLCommand] {
        [
            REPLCommand("more", summary: "the next results") { [unowned self] _ in
                guard model.results.value?.hasMore == true else { return context.show("No more results.") }
                await model.more()
                await show()
            },
            REPLCommand("go", arguments: "N", summary: "open the conversation of result N") { [unowned self] argument in
                guard let number = Int(argument.trimmingCharacters(in: .whitespaces).drop { $0 == "#" }), places.indices.contains(number - 1) else {
                    return context.show("No result \(TerminalText.line(AppError.quoting(argument))); search (or /mentions) first, then /go N.")
                }
                context.navigate(.push(.conversation(places[number - 1])))
            },
        ]
    }

    func enter() async {
        let asked = Self.pending.removeValue(forKey: ObjectIdentifier(context))
        switch asked {
        case .search(let query): await handle(query)
        case .mentions: await showMentions()
        case nil: context.show("Search your messages: type words to find (\"exact words\", prefix*), /help for more.")
        }
    }

    /// The newest messages that mention the user, numbered for `/go N`.
    private func showMentions() async {
        await mentions.load()
        await context.present(mentions.page) { page in
            places = page.mentions.map(\.conversationID)
            guard !page.mentions.isEmpty else { return context.show("Nobody has mentioned you.") }
            await SearchText.lines(page.mentions, lookup: context.lookup, console: context.console).forEach(context.show)
        }
    }

    func handle(_ line: String) async {
        shown = 0
        await model.search(line)
        await show()
    }

    /// The results not yet on the screen.
    private func show() async {
        await context.present(model.results) { page in
            places = page.hits.map(\.conversationID)
            guard !page.hits.isEmpty else { return context.show("No messages match \(TerminalText.line(AppError.quoting(model.query))).") }
            let fresh = Array(page.hits.dropFirst(shown))
            await SearchText.lines(fresh, from: shown + 1, lookup: context.lookup, console: context.console).forEach(context.show)
            shown = page.hits.count
            if page.hasMore { context.show(context.console.styled("(/more for more, /go N to open one)", .dim)) }
        }
    }
}
