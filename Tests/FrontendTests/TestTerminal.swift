import CLIKit
import Foundation
import MessageAIApp
import TestSupport
import Testing

/// A fake terminal for running `messageai` in-process: captures output, feeds input lines, and
/// lets a test wait until some text has been printed.
@MainActor
final class TestTerminal {
    private let log = OutputLog()
    private let errorLog = OutputLog()
    private(set) var errors = ""
    private var pendingInput: [String] = []
    private let lines: AsyncStream<InputLine>
    private let linesContinuation: AsyncStream<InputLine>.Continuation
    let stateDirectory: URL

    /// What the last `run` printed.
    var output: String { log.text }

    private let ownsState: Bool
    private let interactive: Bool
    private let colored: Bool
    private let columns: Int
    private let keys: AsyncStream<UInt8>
    private let keysContinuation: AsyncStream<UInt8>.Continuation

    /// A terminal with a state folder (and home) of its own, or another terminal on the same
    /// machine: `sharing` its folder, so both use the same database and session files. An
    /// `interactive` one runs the REPL's line editor, fed with `press(_:)`; a `colored` one gets
    /// the ANSI styles a colour terminal gets.
    init(sharing other: TestTerminal? = nil, interactive: Bool = false, colored: Bool = false, columns: Int = 80) {
        self.columns = columns
        self.colored = colored
        (lines, linesContinuation) = AsyncStream.makeStream()
        (keys, keysContinuation) = AsyncStream.makeStream()
        self.interactive = interactive
        stateDirectory =
            other?.stateDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("messageai-tests-\(UUID().uuidString)")
        ownsState = other == nil
        extraEnvironment = other?.extraEnvironment ?? [:]
    }

    deinit { if ownsState { try? FileManager.default.removeItem(at: stateDirectory) } }

    /// Set for every later run (e.g. the features that sign the memory backend's demo user in);
    /// a terminal `sharing` this one starts with the same.
    var extraEnvironment: [String: String]

    var environment: [String: String] {
        ["MESSAGEAI_STATE_DIR": stateDirectory.path, "MESSAGEAI_AUTH_BCRYPT_COST": "4", "HOME": stateDirectory.path]
            .merging(extraEnvironment) { $1 }
    }

    /// Runs one command line, split at spaces; returns its exit code.
    func run(_ arguments: String, environment extra: [String: String] = [:]) async -> Int32 {
        await run(arguments: arguments.split(separator: " ").map(String.init), environment: extra)
    }

    /// Runs arguments given as a list (for values with spaces).
    func run(arguments: [String], environment extra: [String: String] = [:]) async -> Int32 {
        log.clear()
        errors = ""
        errorLog.clear()
        return await Launcher.run(arguments: arguments, environment: environment.merging(extra) { $1 }, console: console)
    }

    /// Feeds one line to a running REPL.
    func type(_ line: String) { linesContinuation.yield(.text(line)) }

    /// Feeds key bytes to an interactive terminal's line editor.
    func press(_ text: String) { Array(text.utf8).forEach { keysContinuation.yield($0) } }

    /// Ends the REPL's input.
    func endInput() { linesContinuation.finish() }

    /// Waits until `text` has been printed (since the last `run`, or after `mark`).
    func waitFor(_ text: String, after mark: Int = 0) async { await log.waitFor(text, after: mark) }

    /// Waits until `text` has been printed on standard error since the last `run`.
    func waitForError(_ text: String) async { await errorLog.waitFor(text) }

    /// Where what was printed so far ends: `waitFor(_:after:)` looks only at what comes after it.
    var mark: Int { log.mark }

    var console: Console {
        Console(
            isInteractive: interactive, usesColor: colored,
            write: { [log] in log.append($0) },
            writeError: { [unowned self] in
                errors += $0
                errorLog.append($0)
            },
            readLine: { [unowned self] in pendingInput.isEmpty ? nil : .text(pendingInput.removeFirst()) },
            readSecret: { [unowned self] _ in pendingInput.isEmpty ? nil : pendingInput.removeFirst() },
            readInput: { [unowned self] limit in
                let bytes = Array(pendingInput.map { $0 + "\n" }.joined().utf8.prefix(limit))
                pendingInput = []
                return bytes
            },
            lines: { [unowned self] in lines },
            bytes: { [keys] in keys },
            columns: columns
        )
    }

    func setInput(_ lines: [String]) { pendingInput = lines }

    /// Signs up `name` on profile `name` (lower case), `name@example.com`, password `password123`;
    /// the exit code.
    func signUp(_ name: String) async -> Int32 {
        setInput(["password123"])
        return await run("--profile \(name.lowercased()) signup --email \(name.lowercased())@example.com --name \(name) --password-stdin")
    }

    /// A backend that several people's CLIs share: a SQLite file, or a server over SQLite or
    /// PostgreSQL (the memory backend lives and dies with one command).
    enum SharedStore: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, remote
        case remoteOnPostgres = "remote on postgres"
        var testDescription: String { rawValue }
    }

    /// Points the terminal (and those made later sharing it) at `store`: its own SQLite file,
    /// or a new server (over SQLite or a new PostgreSQL database), returned to be stopped.
    func serve(_ store: SharedStore) async throws -> ServerProcess? {
        guard store != .sqlite else { return nil }
        let folder = stateDirectory.appendingPathComponent("server")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let postgres = store == .remoteOnPostgres ? ["--postgres-url", try await PostgresCluster.shared().database()] : []
        let server = try await ServerProcess(databasePath: folder.appendingPathComponent("server.sqlite").path, arguments: postgres)
        extraEnvironment["MESSAGEAI_BACKEND"] = "remote"
        extraEnvironment["MESSAGEAI_REMOTE_URL"] = server.url
        return server
    }
}
