import CLIKit
import Foundation
import MessageAIApp

/// A fake terminal for running `messageai` in-process: captures output, feeds input lines, and
/// lets a test wait until some text has been printed.
@MainActor
final class TestTerminal {
    private(set) var output = ""
    private(set) var errors = ""
    private var pendingInput: [String]
    private let lines: AsyncStream<String>
    private let linesContinuation: AsyncStream<String>.Continuation
    private var waiters: [(text: String, continuation: CheckedContinuation<Void, Never>)] = []
    let stateDirectory: URL

    init(input: [String] = []) {
        pendingInput = input
        (lines, linesContinuation) = AsyncStream.makeStream()
        stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-tests-\(UUID().uuidString)")
    }

    deinit { try? FileManager.default.removeItem(at: stateDirectory) }

    var environment: [String: String] {
        ["MESSAGEAI_STATE_DIR": stateDirectory.path, "MESSAGEAI_AUTH_BCRYPT_COST": "4", "HOME": stateDirectory.path]
    }

    /// Runs one command line; returns its exit code.
    func run(_ arguments: String, environment extra: [String: String] = [:]) async -> Int32 {
        output = ""
        errors = ""
        return await Launcher.run(arguments: arguments.split(separator: " ").map(String.init),
                                  environment: environment.merging(extra) { $1 }, console: console)
    }

    /// Runs arguments given as a list (for values with spaces).
    func run(arguments: [String]) async -> Int32 {
        output = ""
        errors = ""
        return await Launcher.run(arguments: arguments, environment: environment, console: console)
    }

    /// Feeds one line to a running REPL.
    func type(_ line: String) { linesContinuation.yield(line) }

    /// Ends the REPL's input.
    func endInput() { linesContinuation.finish() }

    /// Waits until `text` has been printed (since the last `run`).
    func waitFor(_ text: String) async {
        if output.contains(text) { return }
        await withCheckedContinuation { waiters.append((text, $0)) }
    }

    var console: Console {
        Console(
            isInteractive: false, usesColor: false,
            write: { [unowned self] in append($0) },
            writeError: { [unowned self] in errors += $0 },
            readLine: { [unowned self] in pendingInput.isEmpty ? nil : pendingInput.removeFirst() },
            readSecret: { [unowned self] _ in pendingInput.isEmpty ? nil : pendingInput.removeFirst() },
            lines: { [unowned self] in lines },
            bytes: { AsyncStream { $0.finish() } }
        )
    }

    func setInput(_ lines: [String]) { pendingInput = lines }

    private func append(_ text: String) {
        output += text
        let ready = waiters.filter { output.contains($0.text) }
        waiters.removeAll { output.contains($0.text) }
        ready.forEach { $0.continuation.resume() }
    }
}
