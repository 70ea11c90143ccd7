import CLIKit
import Foundation
import Kernel

/// Runs the REPL: shows the screen for the current route, reads lines, dispatches `/commands`
/// (the screen's, the features', then its own `/help`, `/back`, `/quit`) and hands other lines to
/// the screen. Features are reached only through their plugins and `Route` values.
@MainActor
public final class REPLHost {
    private let plugins: [any REPLPlugin.Type]
    private let input: any REPLInput
    private let console: Console
    private var context: REPLContext!
    private var routes: [Route] = []
    private var screen: (any REPLScreen)?
    private var pendingNavigation: REPLContext.Navigation?
    private var shouldQuit = false
    /// Whether someone was signed in when the current screen was shown: the features' commands
    /// are offered only then.
    private var signedIn = false
    private var hotlist: Task<Void, Never>?
    private var trouble: Task<Void, Never>?
    /// Whether live updates fail now: the status then counts the sends queued meanwhile.
    private var failing = false
    private let notifier: Notifier?
    private var notices: Task<Void, Never>?
    /// What the screen, the hotlist and live updates' trouble show with the prompt, together.
    private var status = (screen: "", hotlist: "", trouble: "")

    /// Creates a host over the enabled features' plugins; `notifier` tells of the direct messages
    /// and mentions that arrive in other conversations than the one shown.
    public init(
        plugins: [any REPLPlugin.Type], input: any REPLInput, console: Console, lookup: any FrontendLookup,
        container: AnyObject, notifier: Notifier? = nil
    ) {
        self.plugins = plugins
        self.notifier = notifier
        self.input = input
        self.console = console
        context = REPLContext(
            console: console, lookup: lookup, input: input, container: container,
            status: { [weak self] in self?.show(status: $0, of: \.screen) }
        ) { [unowned self] in pendingNavigation = $0 }
        input.completer = { [unowned self] word in completions(for: word) }
        // A screen's tasks may outlive the host by a moment (who types, shown as it leaves).
        input.lineChanged = { [weak self] line in self?.screen?.lineChanged(line) }
    }

    /// Runs until `/quit` or end of input.
    public func run() async {
        await show(.home)
        while !shouldQuit, let line = await input.readLine(prompt: console.styled(screen?.prompt ?? "> ", .bold)) {
            await dispatch(line)
            if failing { await showTrouble() }
            if let navigation = pendingNavigation {
                pendingNavigation = nil
                await show(navigation)
            }
        }
        hotlist?.cancel()
        trouble?.cancel()
        notices?.cancel()
        screen?.leave()
    }

    private func dispatch(_ rawLine: String) async {
        let line = rawLine.trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty else { return }
        guard line.hasPrefix("/") else {
            await screen?.handle(rawLine)
            return
        }
        let name = String(line.dropFirst().prefix { $0 != " " })
        let arguments = line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
        if let command = availableCommands().first(where: { $0.name == name }) {
            await command.run(arguments)
        } else {
            context.showError(AppError(.usage, "unknown command \(AppError.quoting("/" + name)); /help lists the commands"))
        }
    }

    private func availableCommands() -> [REPLCommand] {
        var commands = screen?.commands ?? []
        if signedIn { commands += plugins.flatMap { $0.commands(context: context) } }
        return commands + [
            REPLCommand("help", summary: "list the commands") { [unowned self] _ in showHelp() },
            REPLCommand("back", summary: "go back to the previous screen") { [unowned self] _ in
                pendingNavigation = .back
            },
            REPLCommand("quit", summary: "leave (Ctrl-D also works)") { [unowned self] _ in shouldQuit = true },
        ]
    }

    /// The commands in two columns that never run into each other: a usage too wide for the
    /// column gets a line of its own, and summaries wrap to the terminal's width; on a terminal
    /// too narrow for two columns, each summary goes under its usage.
    private func showHelp() {
        let commands = availableCommands().map { ("/\($0.name)" + ($0.arguments.isEmpty ? "" : " \($0.arguments)"), $0.summary) }
        let widest = min(commands.map(\.0.count).max() ?? 0, 28) + 4
        let column = context.columns - widest >= 20 ? widest : 6
        let pad = String(repeating: " ", count: column)
        for (usage, summary) in commands {
            let lines = TextFormat.wrap(summary, width: context.columns - column)
            if usage.count + 4 > column {
                context.show("  " + console.styled(usage, .cyan))
                lines.forEach { context.show(pad + $0) }
            } else {
                context.show("  " + console.styled(usage.padding(toLength: column - 2, withPad: " ", startingAt: 0), .cyan) + (lines.first ?? ""))
                lines.dropFirst().forEach { context.show(pad + $0) }
            }
        }
    }

    private func show(_ navigation: REPLContext.Navigation) async {
        signedIn = (try? await context.lookup.currentUserID()) != nil
        switch navigation {
        case .push(let route): routes.append(route)
        case .reset(let route): routes = [route]
        case .back:
            guard routes.count > 1 else { return context.show("(nothing to go back to)") }
            routes.removeLast()
        case .reload: break
        case .home:
            guard let start = await home() else {
                hotlist?.cancel()
                show(status: "", of: \.hotlist)
                routes = []
                screen?.leave()
                screen = nil
                show(status: "", of: \.screen)
                return context.showError(
                    AppError(
                        .notSignedIn,
                        "no enabled feature has a screen to start on; sign in with `messageai login` "
                            + "or enable more features (/help lists what works)"))
            }
            routes = [start]
        }
        guard let route = routes.last else { return }
        input.showing(route)
        followTrouble()
        followNotices()
        followHotlist(excluding: route)
        screen?.leave()
        show(status: "", of: \.screen)
        screen = plugins.lazy.compactMap { $0.screen(for: route, context: self.context) }.first
        if let screen {
            await screen.enter()
        } else {
            context.showError(AppError(.usage, "no enabled feature shows \(route); check the 'features' setting"))
        }
    }

    /// Keeps the hotlist shown with the prompt current: the other conversations with unread
    /// messages, as `[number: title count @mentions]`. Only where a status can be shown (a terminal).
    private func followHotlist(excluding route: Route) {
        hotlist?.cancel()
        // Cleared at once: the last screen's hotlist may list the conversation now open.
        show(status: "", of: \.hotlist)
        guard input.isTerminal, signedIn else { return }
        let current: ConversationID? = if case .conversation(let id) = route { id } else { nil }
        let room = max(console.columns / 2, 20)
        hotlist = Task { [weak self, context, console] in
            guard let changes = try? await context?.lookup.listChanges() else { return }
            var ticks = changes.makeAsyncIterator()
            repeat {
                guard let unread = try? await context?.lookup.unreadConversations(), !Task.isCancelled else { continue }
                let entries = unread.filter { $0.id != current }.map { entry in
                    "[\(entry.number): \(TextFormat.preview(TerminalText.line(entry.title), limit: 20)) \(entry.unread)"
                        + (entry.mentions > 0 ? " @\(entry.mentions)]" : "]")
                }
                // At most half the width: a status that wrapped would break the line's redraws.
                let status = TextFormat.preview(entries.joined(separator: " "), limit: room)
                self?.show(status: entries.isEmpty ? "" : console.styled(status, .yellow), of: \.hotlist)
            } while await ticks.next() != nil && !Task.isCancelled
        }
    }

    /// Says why live updates fail on a line when they start failing and another when they come
    /// again (not at every retry between), and meanwhile in red with the prompt: a chat that
    /// stopped moving says so.
    private func followTrouble() {
        guard trouble == nil, signedIn else { return }
        trouble = Task { [weak self, context, console] in
            guard let troubles = try? await context?.lookup.liveTrouble() else { return }
            var said = false
            for await reason in troubles where reason != nil || said {
                if let reason, !said {
                    context?.show(console.styled("live updates: " + TerminalText.line(reason), .red))
                } else if reason == nil {
                    context?.show(console.styled("live updates are back", .green))
                }
                said = reason != nil
                self?.failing = said
                await self?.showTrouble()
            }
        }
    }

    /// Tells of each notice (`FrontendLookup.notices`) while someone is signed in, whatever screen
    /// is shown; the conversation shown tells of nothing.
    private func followNotices() {
        guard signedIn else {
            notices?.cancel()
            notices = nil
            return
        }
        guard notices == nil, let notifier else { return }
        notices = Task { [weak self, context] in
            guard let stream = try? await context?.lookup.notices(open: { [weak self] in self?.openConversation }) else { return }
            for await notice in stream { notifier.notify(notice) }
        }
    }

    /// The conversation on screen, if one is.
    private var openConversation: ConversationID? {
        if case .conversation(let id) = routes.last { id } else { nil }
    }

    /// Sets one part of the status shown with the prompt and shows them all.
    /// `⚠ live updates failing` with the prompt while they do, and how many sends wait for the
    /// server (`· 2 queued`).
    private func showTrouble() async {
        guard failing else { return show(status: "", of: \.trouble) }
        let queued = await context.lookup.queuedSends()
        // They may have come back while the outbox was counted.
        guard failing else { return }
        show(status: console.styled("⚠ live updates failing" + (queued > 0 ? " · \(queued) queued" : ""), .red), of: \.trouble)
    }

    private func show(status part: String, of which: WritableKeyPath<(screen: String, hotlist: String, trouble: String), String>) {
        status[keyPath: which] = part
        input.setStatus([status.trouble, status.screen, status.hotlist].filter { !$0.isEmpty }.joined(separator: " "))
    }

    /// The start screen: the enabled features' offer of highest rank.
    private func home() async -> Route? {
        var best: REPLStart?
        for plugin in plugins {
            if let offer = await plugin.start(signedIn: signedIn, context: context), offer.rank > best?.rank ?? .min { best = offer }
        }
        return best?.route
    }

    private func completions(for word: String) -> [String] {
        if word.hasPrefix("/") { return availableCommands().map { "/" + $0.name } }
        return screen?.completions ?? []
    }
}
