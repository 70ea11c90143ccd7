import CLIKit
import Kernel
import REPLKit
import Search

/// Search's REPL screen: a line typed here is a search; results are numbered, `/more` shows
/// the next ones and `/go N` opens the conversation of result N. It lists mentions too.
@MainActor
final class SearchScreen: REPLScreen {
    /// What another screen asked for (`/search WORDS`, `/mentions`), shown when this one opens;
    /// it travels in the route's argument (`Route.feature(_:argument:)`).
    enum Asked: Equatable {
        case search(String)
        case mentions

        /// The route's argument: `mentions`, or `search ` and the words.
        var argument: String {
            switch self {
            case .search(let words): "search " + words
            case .mentions: "mentions"
            }
        }

        /// What a route's `argument` asks for: the words after `search `; anything else, mentions.
        init(argument: String) {
            self = argument.hasPrefix("search ") ? .search(String(argument.dropFirst("search ".count))) : .mentions
        }
    }

    let prompt = "search> "
    private let context: REPLContext
    private let model: SearchViewModel
    private let mentions: MentionsViewModel
    /// How many results are on the screen.
    private var shown = 0
    /// The conversations of the numbered lines on the screen (results or mentions), for `/go N`.
    private var places: [ConversationID] = []

    /// What the screen shows when it opens: `asked`, or a hint for its home screen.
    private let asked: Asked?

    init(context: REPLContext, asked: Asked? = nil) {
        self.context = context
        self.asked = asked
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
