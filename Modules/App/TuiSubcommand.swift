import AppContainer
import ArgumentParser
import CLIKit
import Kernel
import TUIKit

/// `messageai tui`: the full-screen terminal UI (`FullScreenUI`) over the REPL's screens.
struct TuiSubcommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui", abstract: "Start the full-screen terminal UI (or set frontend: tui).",
        discussion: """
            The conversation list on the left, the open screen on the right, a status line and the input line, on the \
            terminal's alternate screen; every REPL command works from the input line. Keys: Ctrl-N/Ctrl-P the next and \
            previous conversation, Alt-1…9 by number, Alt-A the next in the hotlist, Esc back, PgUp/PgDn or the wheel \
            scroll (past the oldest line, older messages are paged in), Alt-U to the first unread, a click on the list \
            opens, Ctrl-R search the history, Tab complete, Ctrl-C or Ctrl-D on an empty line leave. PNG, JPEG, GIF \
            and WebP pictures (an animation's first frame) are drawn under their messages where the terminal draws pictures (kitty graphics or sixel, asked \
            at the start; tui.pictures to choose). Needs a terminal.
            """)
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        guard context.console.isInteractive, let size = TerminalScreen.size() else {
            throw AppError(.usage, "the full-screen UI needs a terminal; for piped input use `messageai repl`")
        }
        let container = try context.factory(AppContainer.self)
        let console = context.console
        let ui = FullScreenUI(
            bytes: console.inputBytes(), size: size, usesColor: console.usesColor, historyFile: container.historyFile
        ) { console.printRaw($0) }
        let screen = TerminalScreen { console.printRaw($0) }
        screen.enter { ui.resize(to: $0) }
        switch container.settings.value(.tuiPictures) ?? "auto" {
        case "auto": ui.askForGraphics(cell: TerminalScreen.cellSize())
        case let way: ui.drawPictures(with: TerminalGraphics(rawValue: way), cell: TerminalScreen.cellSize())
        }
        defer {
            ui.letGoOfPictures()
            screen.leave()
        }
        let list = ListFollower(lookup: context.lookup, ui: ui)
        ui.routeShown = { _ in list.restart() }
        defer { list.stop() }
        await ReplSubcommand.host(input: ui, in: context, container: container)
    }
}

/// Keeps the UI's conversation list current: again at each change of the list (with the
/// invitations waiting), and who types where, from each screen shown on (a sign-in or a
/// sign-out shows one). Signed out, the list is empty and nothing is followed; a stream that
/// ends (a lost connection) is followed again a second later.
@MainActor
private final class ListFollower {
    private let lookup: any FrontendLookup
    private let ui: FullScreenUI
    private var task: Task<Void, Never>?
    private var typing: Task<Void, Never>?

    init(lookup: any FrontendLookup, ui: FullScreenUI) {
        self.lookup = lookup
        self.ui = ui
    }

    func restart() {
        stop()
        task = following({ [lookup] in try await lookup.listChanges() }, from: ()) { [lookup, ui] _ in
            if let entries = try? await lookup.listedConversations() {
                ui.showConversations(entries, invitations: (try? await lookup.invitationCount()) ?? 0)
            }
        }
        typing = following({ [lookup] in try await lookup.typingConversations() }, from: []) { [ui] in ui.showTyping(in: $0) }
    }

    func stop() {
        task?.cancel()
        typing?.cancel()
    }

    /// Runs `show` on `first`, then on each element of the stream `open` gives, from `first`
    /// again each time the stream is opened again, while someone is signed in; clears the UI's
    /// list when no one is.
    private func following<Element: Sendable>(
        _ open: @escaping @MainActor () async throws -> AsyncStream<Element>, from first: Element,
        show: @escaping @MainActor (Element) async -> Void
    ) -> Task<Void, Never> {
        Task { [lookup, ui] in
            while !Task.isCancelled {
                guard (try? await lookup.currentUserID()) != nil else {
                    ui.showConversations([])
                    return ui.showTyping(in: [])
                }
                // Opened before `first` is shown, so that nothing changing in between is missed.
                let stream = try? await open()
                await show(first)
                for await element in stream ?? AsyncStream { $0.finish() } where !Task.isCancelled { await show(element) }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
}
