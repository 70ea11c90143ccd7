import Foundation
import Synchronization

/// A real `messageai-server` process for a test: started on a port of `TestPorts` over a SQLite
/// file, ready once its first log line names its URL; killed (-9) or stopped (SIGTERM) on demand
/// and started again on the same port and file, which nothing else can have taken meanwhile.
public final class ServerProcess: Sendable {
    /// The server's URL (`http://127.0.0.1:<port>`, or https with TLS).
    public let url: String
    /// The port it listens on.
    public let port: Int
    /// Its database file.
    public let databasePath: String
    private let arguments: [String]
    private let process: Mutex<Process>
    private let output: LogBuffer

    /// The built server next to the test bundle.
    public static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("messageai-server")
    }

    /// The per-person budgets lifted out of reach: tests and benchmarks that are not about
    /// them send and look up as fast as many people would. `arguments` coming after may set them.
    public static let liftedBudgets = [
        "--messages-per-minute", "100000000", "--fan-out-megabytes-per-minute", "1000000",
        "--conversations-per-hour", "100000000", "--renames-per-hour", "100000000",
        "--lookups-per-minute", "100000000", "--requests-at-once", "100000", "--upload-megabytes-per-hour", "10000000",
    ]

    /// Starts a server over `databasePath` on a reserved port, with a cheap bcrypt cost and
    /// (unless told not to lift them) `liftedBudgets`, then `arguments`; `environment` adds to
    /// the test's own for this first run (a `FaultPoint` to stop at).
    public init(
        databasePath: String, liftingBudgets: Bool = true, arguments: [String] = [],
        environment: [String: String] = [:]
    ) async throws {
        self.databasePath = databasePath
        self.arguments = (liftingBudgets ? Self.liftedBudgets : []) + arguments
        let output = LogBuffer()
        let (process, url) = try await Self.launch(
            databasePath: databasePath, port: TestPorts.reserve(), arguments: self.arguments,
            environment: environment, output: output)
        self.process = Mutex(process)
        self.output = output
        self.url = url
        self.port = Int(url.split(separator: ":").last ?? "") ?? 0
    }

    /// The running server's process id.
    public var processIdentifier: Int32 { process.withLock { $0.processIdentifier } }

    /// Everything the server has written so far.
    public var log: String { output.text.withLock { $0 } }

    /// Kills the server at once (SIGKILL) and waits for it to be gone.
    public func kill9() async {
        let process = process.withLock { $0 }
        kill(process.processIdentifier, SIGKILL)
        await process.ended()
    }

    /// Sends SIGTERM and waits; returns the exit status and how long it took.
    public func terminate() async -> (status: Int32, took: Duration) {
        let process = process.withLock { $0 }
        let start = ContinuousClock.now
        process.terminate()
        let status = await process.ended()
        return (status, ContinuousClock.now - start)
    }

    /// Starts the server again on the same port and file, after `kill9` or `terminate`.
    public func restart() async throws {
        let (process, _) = try await Self.launch(databasePath: databasePath, port: port, arguments: arguments, environment: [:], output: output)
        self.process.withLock { $0 = process }
    }

    /// Kills the server if it still runs, without waiting (for a `defer`).
    public func stop() {
        let process = process.withLock { $0 }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    private static func launch(
        databasePath: String, port: Int, arguments: [String], environment: [String: String],
        output: LogBuffer
    ) async throws -> (Process, String) {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw ServerProcessError("build messageai-server first (swift build)")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--port", String(port), "--sqlite-path", databasePath, "--bcrypt-cost", "4", "--log-level", "notice"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let (lines, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                continuation.finish()
                return
            }
            output.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            continuation.yield()
        }
        try process.run()
        let url = try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                for await _ in lines {
                    if let match = output.text.withLock({ $0 }).firstMatch(of: /listening on (https?:\/\/[0-9.]+:[0-9]+)/) {
                        return String(match.output.1)
                    }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(30))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let url else {
            process.terminate()
            throw ServerProcessError("messageai-server did not start: \(output.text.withLock { $0 }.suffix(500))")
        }
        return (process, url)
    }
}

/// What a server process has written.
private final class LogBuffer: Sendable {
    let text = Mutex("")
}

/// Why a test server could not be started.
public struct ServerProcessError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
