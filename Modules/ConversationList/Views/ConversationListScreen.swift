import CLIKit
import ConversationList
import Kernel
import Observation
import REPLKit

/// The REPL's home: the live conversation list; `/open N|NAME` enters a conversation.
@MainActor
final class ConversationListScreen: REPLScreen {
    let prompt = "chats> "
    private let context: REPLContext
    private let model: ConversationListViewModel
    private var live: Task<Void, Never>?
    private var shown: [ConversationSummary]?

    init(context: REPLContext) {
        self.context = context
        model = context.factory(ConversationListFactory.self).makeConversationListViewModel()
    }

    var commands: [REPLCommand] {
        [
            REPLCommand("open", arguments: "N|NAME", summary: "open a conversation by number, title or name") { [unowned self] reference in
                do {
                    context.navigate(.push(.conversation(try model.resolve(reference).id)))
                } catch {
                    context.showError(AppError(error))
                }
            },
            REPLCommand("more", summary: "show older conversations") { [unowned self] _ in
                guard model.hasMore else { return context.show("(no older conversations)") }
                await model.loadMore()
            },
        ]
    }

    var completions: [String] { model.list.value?.map(\.title) ?? [] }

    func enter() async {
        await model.start()
        await render()
        let invitations = context.factory(ConversationListFactory.self).makeInvitationsViewModel()
        await invitations.load()
        if let count = invitations.invitations.value?.count, count > 0 {
            context.show(context.console.styled("\(count) invitation\(count == 1 ? "" : "s") waiting: /invites", .yellow))
        }
        live = Task { [weak self] in
            guard let self else { return }
            async let listening: Void = model.listen()
            for await _ in Observations({ self.model.list }) { await render() }
            await listening
        }
    }

    func handle(_ line: String) async {
        context.say("Type /open N to enter a conversation, /new USER to start one, /help for more.")
    }

    func leave() {
        live?.cancel()
        live = nil
    }

    private func render() async {
        await context.present(model.list) { rows in
            guard rows != shown else { return }
            shown = rows
            ConversationText.rows(rows, console: context.console, startHint: "/new USER").forEach(context.show)
            if model.hasMore { context.show(context.console.styled("(/more for older conversations)", .dim)) }
        }
    }
}
