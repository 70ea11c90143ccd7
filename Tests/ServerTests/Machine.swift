import Foundation
import Synchronization
import TestSupport

/// One client machine for a test: its own state directory (sessions, history), running real
/// `messageai` processes against a server, as a person on another computer would.
struct Machine: Sendable {
    struct Run: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    let state: URL
    let server: String
    /// Environment variables set beside the state directory.
    var environment: [String: String] = [:]

    init(_ name: String, in folder: URL, server: String) {
        state = folder.appendingPathComponent("machine-\(name)")
        self.server = server
    }

    private func process(_ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = LocalMachine.messageai
        process.arguments = ["--backend", "remote", "--server", server] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(
            [
                "MESSAGEAI_STATE_DIR": state.path, "XDG_CONFIG_HOME": state.path, "NO_COLOR": "1",
            ].merging(environment) { $1 }
        ) { $1 }
        return process
    }

    /// Runs `messageai` to its end with `input` on standard input.
    func run(_ arguments: [String], input: String = "") async throws -> Run {
        let finished = try await process(arguments).runToEnd(input: input)
        return Run(status: finished.status, stdout: finished.output, stderr: finished.errors)
    }

    /// Signs up `name` on this machine (password `password-<name>`); returns the user id.
    func signUp(_ name: String) async throws -> String {
        let run = try await run(
            ["signup", "--email", "\(name.lowercased())@example.com", "--name", name, "--password-stdin"],
            input: "password-\(name)\n")
        guard run.status == 0, let id = run.stdout.firstMatch(of: /\(([0-9a-z]+)\)/)?.output.1 else {
            throw ProbeError(description: "signup \(name) exited \(run.status): \(run.stderr)")
        }
        return String(id)
    }

    /// Starts a one-to-one of this machine's user, `name`, with `other`'s user, `otherName`
    /// (both signed up by `signUp`), and accepts it on `other`.
    func startChat(as name: String, with other: Machine, _ otherName: String) async throws {
        for (machine, arguments) in [(self, ["chats", "new", "\(otherName.lowercased())@example.com"]), (other, ["invites", "accept", name])] {
            let run = try await machine.run(arguments)
            guard run.status == 0 else { throw ProbeError(description: "\(arguments.joined(separator: " ")) exited \(run.status): \(run.stderr)") }
        }
    }

    /// Sends `text` followed by an attempt number to `chat` until `reader` (a running `tail`)
    /// prints it, and returns the line: `tail` says nothing while it connects, so the first
    /// message that arrives shows its events socket stands.
    func sendUntilSeen(_ text: String, to chat: String, by reader: Running) async throws -> String? {
        for attempt in 0..<50 {
            let sent = try await run(["send", chat, "\(text) \(attempt)"])
            guard sent.status == 0 else { throw ProbeError(description: "send exited \(sent.status): \(sent.stderr)") }
            if let line = await reader.nextLine(within: .milliseconds(300)) { return line }
        }
        return nil
    }

    /// Starts a long-running `messageai` (such as `tail`) whose output lines arrive one by one.
    func start(_ arguments: [String]) throws -> Running {
        let process = process(arguments)
        let stdout = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stdout
        process.standardInput = stdin
        // Lines go through one stream, in the order they were read: a task for each chunk read
        // (as before) could push a later chunk's lines first, and `tail`'s backlog then seemed
        // to come out of order.
        let (printed, feed) = AsyncStream.makeStream(of: String.self)
        let lines = Inbox.collecting(printed)
        let pending = Mutex("")
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                feed.finish()
                return
            }
            let complete = pending.withLock { text -> [String] in
                text += String(decoding: data, as: UTF8.self)
                var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                text = parts.removeLast()
                return parts
            }
            complete.forEach { feed.yield($0) }
        }
        try process.run()
        return Running(process: process, lines: lines, input: stdin.fileHandleForWriting)
    }

    /// A `messageai` process that keeps running.
    struct Running: Sendable {
        let process: Process
        let lines: Inbox<String>
        let input: FileHandle

        /// Types `line` (a REPL's standard input).
        func type(_ line: String) { try? input.write(contentsOf: Data((line + "\n").utf8)) }

        /// Reads lines until one contains `text`; returns it, or `nil` after `limit`.
        func waitFor(_ text: String, within limit: Duration = .seconds(15)) async -> String? {
            let deadline = ContinuousClock.now + limit
            while ContinuousClock.now < deadline, let line = await nextLine(within: deadline - ContinuousClock.now) {
                if line.contains(text) { return line }
            }
            return nil
        }

        /// The next line it prints, or `nil` once it has ended or `limit` has passed.
        func nextLine(within limit: Duration = .seconds(15)) async -> String? { await lines.next(within: limit) }

        /// Ends its input, sends SIGTERM and waits for it to end.
        func stop() async {
            terminate()
            await process.ended()
        }

        /// Ends its input and sends SIGTERM, without waiting (for a `defer`).
        func terminate() {
            try? input.close()
            if process.isRunning { process.terminate() }
        }
    }
}
