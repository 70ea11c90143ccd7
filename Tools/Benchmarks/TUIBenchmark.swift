import ArgumentParser
import CLIKit
import Chat
import Foundation
import Kernel
import TUIKit
import TestSupport

/// The full-screen UI's own costs, in this process, on a terminal that takes everything at once:
/// a key echoed to the screen, a redraw when a message arrives, the UI at rest, and memory while
/// a million lines pass through it and while a conversation of a million messages in a SQLite
/// file is paged back through to its first.
struct TUIBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui", abstract: "Keypress echo, redraw on arrival, idle CPU and memory of the full-screen UI.")
    @Option(help: "Lines already in the open screen.") var lines = 10_000
    @Option(help: "Conversations in the list.") var conversations = 1_000
    @Option(help: "Keys, and arrivals, timed.") var runs = 500
    @Option(help: "Seconds measured at rest.") var idle = 10
    @Option(help: "Lines passed through for the memory figure.") var flood = 1_000_000
    @Option(help: "Messages of a SQLite conversation paged back through for the memory figure.") var history = 1_000_000

    @MainActor
    func run() async throws {
        for (rows, columns) in [(24, 80), (50, 200)] {
            let screen = Screen(rows: rows, columns: columns)
            screen.ui.showConversations(
                (1...conversations).map {
                    ListedConversation(
                        number: $0, id: ConversationID("c\($0)"), title: "Conversation \($0) 東京 🎉", unread: $0 % 7, mentions: $0 % 13 == 0 ? 1 : 0)
                })
            screen.ui.showing(.conversation(ConversationID("c3")))
            for number in 1...lines { screen.ui.printAbove(Self.line(number)) }
            let reading = Task { await screen.ui.readLine(prompt: "Engine room> ") }
            await screen.painted()
            var echo: [Double] = [], arrival: [Double] = []
            for number in 0..<runs {
                echo.append(await Stats.time { await screen.painted { screen.type(number % 40 == 39 ? "\u{15}" : "a") } })
                arrival.append(await Stats.time { await screen.painted { screen.ui.printAbove(Self.line(lines + number)) } })
            }
            print(
                "tui \(columns)×\(rows), \(lines) lines, \(conversations) conversations: keypress echo median "
                    + "\(Stats.format(Stats.median(echo) * 1_000, 3)) ms, p99 \(Stats.format(Stats.percentile(echo, 0.99) * 1_000, 3)) ms; "
                    + "redraw on arrival median \(Stats.format(Stats.median(arrival) * 1_000, 3)) ms, "
                    + "p99 \(Stats.format(Stats.percentile(arrival, 0.99) * 1_000, 3)) ms (\(runs) each)")
            screen.type("\u{15}\u{4}")
            _ = await reading.value
        }
        let pid = ProcessInfo.processInfo.processIdentifier
        let cpu = Child.cpuSeconds(of: pid)
        try await Task.sleep(for: .seconds(idle))
        print("tui at rest: \(Stats.format((Child.cpuSeconds(of: pid) - cpu) / Double(idle) * 100, 3))% of a core over \(idle) s")
        let screen = Screen(rows: 50, columns: 200)
        var resident: [String] = []
        for number in 1...flood {
            screen.ui.printAbove(Self.line(number))
            if [10_000, flood / 10, flood].contains(number) {
                await screen.painted()
                resident.append("\(number) lines: \(Child.residentBytes(of: pid) / 1_048_576) MiB")
            }
        }
        print("tui resident while lines pass: " + resident.joined(separator: ", ") + " (\(FullScreenUI.scrollbackLines) kept)")
        try await pageBack(pid: pid)
    }

    /// Pages a conversation of `history` messages back to its first, as PgUp does (`/more`, 500
    /// at a time, each page put above the others in the pane), noting the resident memory.
    @MainActor
    private func pageBack(pid: Int32) async throws {
        let world = try await World()
        defer { try? FileManager.default.removeItem(at: world.folder) }
        let (me, other, conversation) = try await world.pair()
        try Seeder.messages(history, in: conversation, from: [me.userID, other.userID], path: world.path)
        let model = world.container.makeChatViewModel(conversationID: conversation)
        await model.open(limit: 50)
        let screen = Screen(rows: 50, columns: 200)
        screen.ui.showing(.conversation(conversation))
        var paged = 50, resident: [String] = []
        let started = ContinuousClock.now
        while model.timeline.value?.hasOlder == true {
            await model.loadOlder(limit: 500)
            guard let count = model.olderPage.value, count > 0, let entries = model.timeline.value?.entries else { break }
            screen.ui.printOlder(entries.prefix(count).map { .line($0.text) })
            let before = paged
            paged += count
            if [10_000, history / 10, history].contains(where: { before < $0 && $0 <= paged }) || !(model.timeline.value?.hasOlder ?? false) {
                await screen.painted()
                resident.append("\(paged) messages: \(Child.residentBytes(of: pid) / 1_048_576) MiB")
            }
        }
        let seconds = Double((ContinuousClock.now - started).components.seconds)
        print(
            "tui resident while paging back through \(history) messages: " + resident.joined(separator: ", ")
                + " (at most \(Timeline.maxStored) held; \(Stats.format(seconds, 0)) s)")
    }

    /// A message line as a chat screen prints it.
    static func line(_ number: Int) -> String {
        "[12:\(String(format: "%02d", number % 60))] " + Style.bold.apply(to: "Grace Hopper") + ": message \(number), with 東京 and 🎉 "
            + String(repeating: "words ", count: number % 20)
    }

    /// A UI over keys the benchmark types, telling it when a frame was painted.
    @MainActor
    final class Screen {
        let ui: FullScreenUI
        private let keys: AsyncStream<UInt8>.Continuation
        private var waiting: CheckedContinuation<Void, Never>?

        init(rows: Int, columns: Int) {
            let (bytes, keys) = AsyncStream<UInt8>.makeStream()
            self.keys = keys
            var sink: (() -> Void)?
            ui = FullScreenUI(bytes: bytes, size: .init(rows: rows, columns: columns), usesColor: true, historyFile: nil) { _ in sink?() }
            sink = { [unowned self] in
                waiting?.resume()
                waiting = nil
            }
        }

        func type(_ text: String) { text.utf8.forEach { keys.yield($0) } }

        /// Does `change`, then waits for the next frame.
        func painted(after change: () -> Void = {}) async {
            await withCheckedContinuation { continuation in
                waiting = continuation
                change()
            }
        }
    }
}
