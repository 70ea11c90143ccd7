import AppContainer
import ArgumentParser
import CLIKit
import Chat
import Kernel
import REPLKit

/// `messageai repl`: the interactive front end.
struct ReplSubcommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl", abstract: "Start the interactive REPL (the default on a terminal).",
        discussion: "When standard input is not a terminal it reads one command per line, with plain output.")
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        let container = try context.factory(AppContainer.self)
        let input: any REPLInput =
            if context.console.isInteractive {
                LineEditor(bytes: context.console.inputBytes(), historyFile: container.historyFile) { context.console.printRaw($0) }
            } else {
                ScriptedInput(lines: context.console.inputLines(), console: context.console)
            }
        await Self.host(input: input, in: context, container: container)
    }

    /// Runs the REPL's host over `input` (the line editor, the full-screen UI or a script) until
    /// it ends, with the outbox's refusals shown and what it holds sent.
    @MainActor static func host(input: any REPLInput, in context: CLIContext, container: AppContainer) async {
        let refusals = await reportRefusals(of: container.outbox, to: input, console: context.console)
        defer { refusals?.cancel() }
        await container.keepUnsentMessages()
        let console = context.console
        let notifier = input.isTerminal ? container.settings.notifier { text in Task { @MainActor in console.printRaw(text) } } : nil
        let host = REPLHost(
            plugins: FeatureRegistry.enabled(by: container.settings), input: input,
            console: console, lookup: context.lookup, container: container, notifier: notifier)
        await host.run()
        // What was typed while the server was away goes out now if it can; what cannot waits
        // in the outbox for the next run.
        if let outbox = container.outbox, await !outbox.drained(within: .seconds(2)) {
            context.console.printError("Unsent messages wait in the outbox until the server is back (the next `messageai` REPL sends them).")
        }
    }

    /// Shows each kept message the server refuses once it is back, whichever screen is open: a
    /// refused message leaves the outbox, and the chat screen marks it failed only while its
    /// conversation is open (then both say so).
    @MainActor private static func reportRefusals(of outbox: Outbox?, to input: any REPLInput, console: Console) async -> Task<Void, Never>? {
        guard let outbox else { return nil }
        let outcomes = await outbox.outcomes()
        return Task { @MainActor in
            for await case .refused(let entry, let reason) in outcomes {
                input.printAbove(console.styled("error: \(AppError.quoting(entry.text)) was not sent: " + TerminalText.line(reason), .red))
            }
        }
    }
}
