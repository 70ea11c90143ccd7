import CLIKit
import Kernel
import REPLKit
import Search

/// Search's REPL screen: a line typed here is a search; results are numbered, `/more` shows
/// the next ones and `/go N` opens the conversation of result N.
@MainActor
final class SearchScreen: REPLScreen {
    /// A search asked for on another screen (`/search WORDS`), run when this one opens.
    static var pending: String?

    let prompt = "search> "
    private let context: REPLContext
    private let model: SearchViewModel
    /// How many results are on the screen.
    private var shown = 0

    init(context: REPLContext) {
        self.context = context
        model = context.factory(SearchFactory.self).makeSearchViewModel()
    }

    var commands: [REPLCommand] {
        [
            REPLCommand("more", summary: "the next results") { [unowned self] _ in
                guard model.results.value?.hasMore == true else { return context.show("No more results.") }
                await model.more()
                await show()
            },
            REPLCommand("go", arguments: "N", summary: "open the conversation of result N") { [unowned self] argument in
                let hits = model.results.value?.hits ?? []
                guard let number = Int(argument.trimmingCharacters(in: .whitespaces).drop { $0 == "#" }), (1...max(hits.count, 1)).contains(number), !hits.isEmpty else {
                    return context.show("No result \(TerminalText.line(AppError.quoting(argument))); search first, then /go N.")
                }
                context.navigate(.push(.conversation(hits[number - 1].conversationID)))
            },
        ]
    }

    func enter() async {
        guard let query = Self.pending else { return context.show("Search your messages: type words to find (\"exact words\", prefix*), /help for more.") }
        Self.pending = nil
        await handle(query)
    }

    func handle(_ line: String) async {
        shown = 0
        await model.search(line)
        await show()
    }

    /// The results not yet on the screen.
    private func show() async {
        await context.present(model.results) { page in
            guard !page.hits.isEmpty else { return context.show("No messages match \(TerminalText.line(AppError.quoting(model.query))).") }
            let fresh = Array(page.hits.dropFirst(shown))
            await SearchText.lines(fresh, from: shown + 1, lookup: context.lookup, console: context.console).forEach(context.show)
            shown = page.hits.count
            if page.hasMore { context.show(context.console.styled("(/more for more, /go N to open one)", .dim)) }
        }
    }
}
