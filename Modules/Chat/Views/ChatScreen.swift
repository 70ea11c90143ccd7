import CLIKit
import Chat
import Kernel
import Observation
import REPLKit

/// One conversation in the REPL: history, live messages above the prompt, plain text sends,
/// `/more` pages back, `/retry` resends the last failed message. Marks read while open. The
/// prompt names the conversation; a marker line separates what was read from what is new.
@MainActor
final class ChatScreen: REPLScreen {
    private(set) var prompt = "chat> "
    private let context: REPLContext
    private let conversationID: ConversationID
    /// Messages from others not yet read when the screen opened: where the marker goes.
    private var unreadAtOpen = 0
    private let model: ChatViewModel
    private var live: Task<Void, Never>?
    private var printed: [MessageID: Timeline.Entry.Delivery] = [:]
    private var names: [UserID: String] = [:]
    private var me: UserID?

    init(context: REPLContext, conversationID: ConversationID) {
        self.context = context
        self.conversationID = conversationID
        model = context.factory(ChatFactory.self).makeChatViewModel(conversationID: conversationID)
    }

    var commands: [REPLCommand] {
        [
            REPLCommand("more", summary: "show older messages") { [unowned self] _ in await loadOlder() },
            REPLCommand("retry", summary: "send the last failed message again") { [unowned self] _ in
                guard let failed = model.lastFailed else { return context.show("Nothing to retry.") }
                await model.retry(failed.id)
            },
        ]
    }

    func enter() async {
        me = try? await context.lookup.currentUserID()
        if let title = try? await context.lookup.conversationTitle(conversationID) { prompt = TerminalText.line(title) + "> " }
        unreadAtOpen = (try? await context.lookup.unreadConversations().first { $0.id == conversationID }?.unread) ?? 0
        await model.start()
        if model.timeline.value?.entries.isEmpty == true {
            context.show(context.console.styled("(no messages yet: type to send, /back to leave)", .dim))
        }
        await render(model.timeline)
        live = Task { [weak self] in
            guard let self else { return }
            async let listening: Void = model.listen()
            for await timeline in Observations({ self.model.timeline }) { await render(timeline) }
            await listening
        }
    }

    func handle(_ line: String) async {
        await model.send(line)
        if let error = model.inputError { context.showError(error) }
    }

    func leave() {
        live?.cancel()
        live = nil
    }

    private func render(_ state: Loadable<Timeline>) async {
        await context.present(state) { timeline in
            let fresh = timeline.entries.filter { $0.delivery != .pending && printed[$0.id] != $0.delivery }
            guard !fresh.isEmpty else { return }
            if printed.isEmpty {
                context.show(context.console.styled("(/more for older messages, /back to leave)", .dim))
                await showMarkingNew(fresh)
            } else {
                await show(fresh)
            }
            if let error = model.lastSendError, fresh.contains(where: \.isFailed) { context.showError(error) }
            if fresh.contains(where: { $0.senderID.map { $0 != me } ?? false }) { await model.markRead() }
        }
    }

    private func loadOlder() async {
        await model.loadOlder()
        await context.present(model.olderPage) { count in
            guard count > 0 else { return context.show("(no older messages)") }
            context.show(context.console.styled("— \(count) older —", .dim))
            await show(Array((model.timeline.value?.entries ?? []).prefix(count)))
        }
    }

    /// The first messages shown, with a marker line before the first one not read yet.
    private func showMarkingNew(_ messages: [Timeline.Entry]) async {
        var fromOthers = 0
        let firstNew = messages.lastIndex { message in
            let fromOther = message.senderID.map { $0 != me } ?? false
            if fromOther { fromOthers += 1 }
            return fromOthers == unreadAtOpen && fromOther
        }
        guard unreadAtOpen > 0 else { return await show(messages) }
        guard let firstNew else {
            // More is new than was loaded: all of it.
            context.show(context.console.styled("——— \(unreadAtOpen) new (/more for the rest) ———", .yellow))
            return await show(messages)
        }
        await show(Array(messages[..<firstNew]))
        context.show(context.console.styled("——— \(unreadAtOpen) new ———", .yellow))
        await show(Array(messages[firstNew...]))
    }

    private func show(_ messages: [Timeline.Entry]) async {
        let unknown = Set(messages.compactMap(\.senderID)).subtracting(names.keys)
        if !unknown.isEmpty, let found = try? await context.lookup.displayNames(of: Array(unknown)) { names.merge(found) { $1 } }
        for message in messages { printed[message.id] = message.delivery }
        MessageText.lines(messages, names: names, me: me, console: context.console).forEach(context.show)
    }
}
