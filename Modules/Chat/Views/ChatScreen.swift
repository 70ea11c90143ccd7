import CLIKit
import Chat
import Kernel
import Observation
import REPLKit

/// One conversation in the REPL: history, live messages above the prompt, plain text sends,
/// `/more` pages back, `/retry` resends the last failed message, `/edit` and `/delete` change
/// one of yours, `/reply`, `/react` and `/unreact` any, `/attach`, `/save` and `/open` files
/// (`ChatFileCommands`; `/recent` numbers the last messages to point at). Marks read while open. The
/// prompt names the conversation; a marker line separates what was read from what is new; a
/// change to a message already shown prints as a line saying what changed. Who else is typing
/// shows beside the prompt, and the others see the user typing as they type.
@MainActor
final class ChatScreen: REPLScreen {
    private(set) var prompt = "chat> "
    private let context: REPLContext
    private let conversationID: ConversationID
    /// Messages from others not yet read when the screen opened: where the marker goes.
    private var unreadAtOpen = 0
    private let model: ChatViewModel
    private let typing: TypingViewModel
    private var live: Task<Void, Never>?
    private var printed: [MessageID: Timeline.Entry.Delivery] = [:]
    /// Whether the screen has said how to page back and leave: once, when it opens.
    private var hinted = false
    private var days = DayHeadings()
    private var names: [UserID: String] = [:]
    private var me: UserID?
    /// The other members, whose `@Name`s Tab completes.
    private var others: [UserID] = []
    /// How many messages each other member had read when last shown; `nil` before the first load.
    private var seenCounts: [UserID: Int]?

    init(context: REPLContext, conversationID: ConversationID) {
        self.context = context
        self.conversationID = conversationID
        model = context.factory(ChatFactory.self).makeChatViewModel(conversationID: conversationID)
        typing = context.factory(ChatFactory.self).makeTypingViewModel(conversationID: conversationID)
    }

    var commands: [REPLCommand] {
        [
            REPLCommand("more", summary: "show older messages") { [unowned self] _ in await loadOlder() }
        ] + newest + [
            REPLCommand("retry", summary: "send the last failed message again") { [unowned self] _ in
                guard let failed = model.lastFailed else { return context.show("Nothing to retry.") }
                await model.retry(failed.id)
            },
            REPLCommand("seen", summary: "how far the others have read") { [unowned self] _ in
                await model.loadReceipts()
                await context.present(model.receipts) { receipts in
                    guard !receipts.isEmpty else { return context.show("No read receipts to show (none shared, or yours are private).") }
                    await learnNames(of: receipts.map(\.userID))
                    for receipt in receipts {
                        let name = TerminalText.line(names[receipt.userID] ?? receipt.userID.rawValue)
                        context.show(name + ": " + (receipt.lastRead.map { "read up to " + describe($0) } ?? "has read nothing yet"))
                    }
                }
            },
            REPLCommand("recent", summary: "number the last \(Self.recentCount) messages, for /edit and /delete") { [unowned self] _ in
                let recent = recentMessages()
                guard !recent.isEmpty else { return context.show("No messages yet.") }
                for (number, message) in recent.enumerated().reversed() {
                    let line = MessageText.lines([Timeline.Entry(message)], names: names, me: me, console: context.console).joined()
                    context.show(context.console.styled("#\(number + 1) ", .dim) + line)
                }
            },
            REPLCommand("edit", arguments: "[#N] TEXT", summary: "change your message #N (/recent), or your last one") { [unowned self] arguments in
                guard let (message, text) = target(of: arguments, doing: "edit") else { return }
                if await model.edit(message.id, to: text) == nil, let error = model.changeError { context.showError(error) }
            },
            REPLCommand("delete", arguments: "[#N]", summary: "delete your message #N (/recent), or your last one, for everyone") {
                [unowned self] arguments in
                guard let (message, _) = target(of: arguments, doing: "delete") else { return }
                if await model.delete(message.id) == nil, let error = model.changeError { context.showError(error) }
            },
            REPLCommand("reply", arguments: "[#N] TEXT", summary: "answer message #N (/recent), or the last one") { [unowned self] arguments in
                guard let (message, text) = target(of: arguments, doing: "answer", anyone: true) else { return }
                await model.send(text, replyTo: message.id)
                if let error = model.inputError { context.showError(error) }
            },
            REPLCommand("react", arguments: "[#N] EMOJI", summary: "react to message #N (/recent), or the last one") { [unowned self] arguments in
                await react(arguments, adding: true)
            },
            REPLCommand("unreact", arguments: "[#N] EMOJI", summary: "take back your reaction to message #N, or the last one") {
                [unowned self] arguments in
                await react(arguments, adding: false)
            },
        ]
            + ChatFileCommands(context: context, conversationID: conversationID, model: model) { [unowned self] in
                target(of: $0, doing: $1, anyone: true)
            }
            .commands
    }

    /// `/newest`, while paging back let go of the newest messages (`Timeline.hasNewer`).
    private var newest: [REPLCommand] {
        guard model.timeline.value?.hasNewer == true else { return [] }
        return [
            REPLCommand("newest", summary: "show the newest messages again") { [unowned self] _ in context.navigate(.reload) }
        ]
    }

    /// How many of the last messages `/recent` numbers.
    static let recentCount = 10

    /// The last stored messages shown, newest first: `#1` is the newest.
    private func recentMessages() -> [Message] {
        Array((model.timeline.value?.entries ?? []).compactMap(\.message).suffix(Self.recentCount).reversed())
    }

    private func react(_ arguments: String, adding: Bool) async {
        guard let (message, emoji) = target(of: arguments, doing: "react to", anyone: true) else { return }
        if await model.react(to: message.id, with: emoji, adding: adding) == nil, let error = model.changeError { context.showError(error) }
    }

    /// The message `arguments` names among `recentMessages()` and the rest of `arguments`
    /// (`MessageTarget`); `nil`, said on the screen, when there is no such message.
    private func target(of arguments: String, doing verb: String, anyone: Bool = false) -> (Message, String)? {
        switch MessageTarget.find(arguments, among: recentMessages(), me: me, anyone: anyone, doing: verb) {
        case .success(let target): return (target.message, target.rest)
        case .failure(let refusal):
            context.show(refusal.line)
            return nil
        }
    }

    /// `@Name` of each other member: Tab completes a mention.
    var completions: [String] { others.compactMap { names[$0].map { "@" + $0 } } }

    func enter() async {
        me = try? await context.lookup.currentUserID()
        others = ((try? await context.lookup.conversationMembers(conversationID)) ?? []).filter { $0 != me }
        await learnNames(of: others)
        if let title = try? await context.lookup.conversationTitle(conversationID) { prompt = TerminalText.line(title) + "> " }
        unreadAtOpen = (try? await context.lookup.unreadConversations().first { $0.id == conversationID }?.unread) ?? 0
        await typing.start()
        await model.start()
        if model.timeline.value?.entries.isEmpty == true {
            context.show(context.console.styled("(no messages yet: type to send, /back to leave)", .dim))
            hinted = true
        }
        await render(model.timeline)
        await model.loadReceipts()
        live = Task { [weak self] in
            guard let self else { return }
            async let listening: Void = model.listen()
            async let typingFollowed: Void = typing.listen()
            let seen = Task { @MainActor [weak self] in
                guard let self else { return }
                for await receipts in Observations({ self.model.receipts }) { await showSeen(receipts) }
            }
            let typists = Task { @MainActor [weak self] in
                guard let self else { return }
                for await typists in Observations({ self.typing.typists }) { await showTyping(typists) }
            }
            for await timeline in Observations({ self.model.timeline }) { await render(timeline) }
            seen.cancel()
            typists.cancel()
            await listening
            await typingFollowed
        }
    }

    func handle(_ line: String) async {
        await model.send(line)
        if let error = model.inputError { context.showError(error) }
    }

    func leave() {
        typing.lineChanged("")
        live?.cancel()
        live = nil
    }

    func lineChanged(_ line: String) { typing.lineChanged(line) }

    /// Who is typing, beside the prompt (`MessageText.typing`).
    private func showTyping(_ typists: [UserID]) async {
        await learnNames(of: typists)
        let status = MessageText.typing(typists.map { TerminalText.line(names[$0] ?? $0.rawValue) })
        context.setStatus(status.isEmpty ? "" : context.console.styled(status, .dim))
    }

    private func render(_ state: Loadable<Timeline>) async {
        await context.present(state) { timeline in
            var fresh = timeline.entries.filter { $0.delivery != .pending && printed[$0.id] != $0.delivery }
            // A message shown already and changed since: a line saying what changed.
            let changed = fresh.filter { entry in
                if case .sent(let shown) = printed[entry.id], let now = entry.message {
                    shown.version != now.version || shown.deleted != now.deleted || shown.reactionCounts != now.reactionCounts
                } else {
                    false
                }
            }
            if !changed.isEmpty {
                await showChanges(changed)
                fresh.removeAll { entry in changed.contains { $0.id == entry.id } }
            }
            guard !fresh.isEmpty else { return }
            if printed.isEmpty {
                // Not after "no messages yet": the first message to arrive has none older.
                if !hinted { context.show(context.console.styled("(/more for older messages, /back to leave)", .dim)) }
                hinted = true
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
            let entries = model.timeline.value?.entries ?? []
            // What paging back let go of is forgotten as shown: `/newest` shows it again.
            let kept = Set(entries.map(\.id))
            printed = printed.filter { kept.contains($0.key) }
            let older = await page(of: Array(entries.prefix(count)), older: true)
            context.showOlder([.line(context.console.styled("— \(count) older —", .dim))] + older)
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
            context.showUnreadMarker(context.console.styled("——— \(unreadAtOpen) new (/more for the rest) ———", .yellow))
            return await show(messages)
        }
        await show(Array(messages[..<firstNew]))
        context.showUnreadMarker(context.console.styled("——— \(unreadAtOpen) new ———", .yellow))
        await show(Array(messages[firstNew...]))
    }

    /// One line for each message that was edited or deleted after it was shown.
    private func showChanges(_ entries: [Timeline.Entry]) async {
        await learnNames(of: entries)
        for entry in entries {
            guard let message = entry.message else { continue }
            let who = message.senderID == me ? "You" : TerminalText.line(names[message.senderID] ?? message.senderID.rawValue)
            context.show(MessageText.change(of: message, shown: printed[entry.id] ?? entry.delivery, by: who, console: context.console))
            printed[entry.id] = entry.delivery
        }
    }

    private func learnNames(of messages: [Timeline.Entry]) async { await learnNames(of: messages.compactMap(\.senderID)) }

    private func learnNames(of users: [UserID]) async {
        let unknown = Set(users).subtracting(names.keys)
        if !unknown.isEmpty, let found = try? await context.lookup.displayNames(of: Array(unknown)) { names.merge(found) { $1 } }
    }

    /// A line under the conversation when others have read further: `✓ seen by Grace (up to “…”)`,
    /// the readers of one message together. The first receipts loaded are only remembered.
    private func showSeen(_ state: Loadable<[ReadReceipt]>) async {
        guard let receipts = state.value else { return }
        defer { seenCounts = Dictionary(receipts.map { ($0.userID, $0.readCount) }) { $1 } }
        guard let before = seenCounts else { return }
        // A marker moved by its owner's own send is no news.
        let moved = receipts.filter { receipt in
            guard let last = receipt.lastRead, receipt.readCount > (before[receipt.userID] ?? 0) else { return false }
            return model.timeline.value?.entries.first { $0.id == last }?.senderID != receipt.userID
        }
        guard !moved.isEmpty else { return }
        await learnNames(of: moved.map(\.userID))
        for (message, readers) in Dictionary(grouping: moved, by: { $0.lastRead }).sorted(by: {
            ($0.value.first?.readCount ?? 0) < ($1.value.first?.readCount ?? 0)
        }) {
            let who = readers.map { TerminalText.line(names[$0.userID] ?? $0.userID.rawValue) }.sorted().joined(separator: ", ")
            context.show(context.console.styled("    ✓ seen by \(who)" + (message.map { " (up to " + describe($0) + ")" } ?? ""), .dim))
        }
    }

    /// A message on the screen as its time and the start of its text, or its id when it is not there.
    private func describe(_ id: MessageID) -> String {
        model.timeline.value?.entries.first(where: { $0.id == id })?.message.map(MessageText.summary(of:)) ?? "message \(id)"
    }

    /// Shows `messages`, each followed by its pictures, unless the screen was left while their
    /// senders' names were looked up.
    private func show(_ messages: [Timeline.Entry]) async {
        for message in messages { printed[message.id] = message.delivery }
        await learnNames(of: messages)
        for entry in messages where !Task.isCancelled { context.show(await page(of: [entry])) }
    }

    /// The lines of `messages` (shown after the others, or `older`, before them), each followed
    /// by its pictures, with their days' headings; the messages are remembered as shown.
    private func page(of messages: [Timeline.Entry], older: Bool = false) async -> [Printed] {
        // Marked before the names are looked up: a render meanwhile must not show them again.
        for message in messages { printed[message.id] = message.delivery }
        await learnNames(of: messages)
        let shown = model.timeline.value?.entries.compactMap(\.message) ?? []
        let lines = MessageText.lines(messages, names: names, me: me, console: context.console, shown: shown)
        let items = zip(lines, messages).map { line, entry in
            [.line(line)] + (entry.message.map { ChatFileCommands.pictures(of: $0, in: context) } ?? [])
        }
        return days.placing(items, of: messages, older: older, console: context.console)
    }
}
