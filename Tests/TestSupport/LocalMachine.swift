import Foundation

/// `messageai` processes of one machine over the SQLite backend, as a person at a terminal runs
/// them: a scratch folder holds its home, state directory and database file.
public struct LocalMachine: Sendable {
    /// The scratch folder; `remove()` deletes it.
    public let folder: URL
    /// The environment every process gets, on top of the test's own.
    public var environment: [String: String]

    /// The built `messageai` beside the test bundle.
    public static var messageai: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("messageai")
    }

    /// The database file.
    public var databasePath: String { folder.appendingPathComponent("data/messageai.sqlite").path }

    /// A machine in a new scratch folder named after `name`.
    public init(_ name: String) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-\(name)-\(UUID().uuidString)")
        environment = [
            "HOME": folder.path, "MESSAGEAI_STATE_DIR": folder.appendingPathComponent("state").path,
            "MESSAGEAI_SQLITE_PATH": folder.appendingPathComponent("data/messageai.sqlite").path,
            "MESSAGEAI_AUTH_BCRYPT_COST": "4", "NO_COLOR": "1",
        ]
    }

    /// A `messageai` process with `arguments`, not started.
    public func process(_ arguments: [String]) throws -> Process {
        guard FileManager.default.isExecutableFile(atPath: Self.messageai.path) else { throw LocalMachineError.notBuilt }
        let process = Process()
        process.executableURL = Self.messageai
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        return process
    }

    /// Runs `messageai` with `arguments` and `input` to its end.
    public func run(_ arguments: [String], input: String = "") async throws -> Process.Finished {
        try await process(arguments).runToEnd(input: input)
    }

    /// Starts a long-running `messageai` (a REPL, a `tail`), its standard error among its lines.
    public func start(_ arguments: [String]) throws -> Child {
        guard FileManager.default.isExecutableFile(atPath: Self.messageai.path) else { throw LocalMachineError.notBuilt }
        return try Child(Self.messageai.path, arguments, environment: environment, mergingErrors: true)
    }

    /// Deletes the scratch folder.
    public func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// Why a local machine cannot run `messageai`.
public enum LocalMachineError: Error, CustomStringConvertible {
    case notBuilt

    public var description: String { "build messageai first (swift build)" }
}
