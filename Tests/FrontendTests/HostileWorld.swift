import Foundation
import GRDB
import TestSupport
import Testing

/// A prepared world for the hostile-input corpus: Ada signed in on the default profile, chats
/// with Bob, Bobby and the group "Bank", in a scratch home; and how to run one case in it.
final class HostileWorld: Sendable {
    struct Run {
        let status: Int32
        let signal: Int32?
        let stdout: String
        let stderr: String
        let timedOut: Bool
    }

    let home: URL
    let messageai: URL
    var state: URL { home.appendingPathComponent("state") }
    var database: URL { home.appendingPathComponent(".local/share/messageai/messageai.sqlite") }
    var environment: [String: String] {
        ["HOME": home.path, "MESSAGEAI_STATE_DIR": state.path, "MESSAGEAI_AUTH_BCRYPT_COST": "4", "PATH": "/usr/bin:/bin"]
    }

    private init(home: URL, messageai: URL) {
        self.home = home
        self.messageai = messageai
    }

    static func make() async throws -> HostileWorld {
        signal(SIGPIPE, SIG_IGN)
        let messageai = LocalMachine.messageai
        try #require(FileManager.default.isExecutableFile(atPath: messageai.path), "build messageai first (swift build)")
        let world = HostileWorld(
            home: FileManager.default.temporaryDirectory.appendingPathComponent("messageai-hostile-\(UUID().uuidString)"),
            messageai: messageai)
        try FileManager.default.createDirectory(at: world.home, withIntermediateDirectories: true)
        for (profile, name) in [("bob", "Bob"), ("bobby", "Bobby"), ("default", "Ada")] {
            let email = (profile == "default" ? "ada" : profile) + "@example.com"
            try await world.setUp(["--profile", profile, "signup", "--email", email, "--name", name, "--password-stdin"], stdin: "password123\n")
        }
        try await world.setUp(["chats", "new", "bob@example.com"])
        try await world.setUp(["chats", "new", "bobby@example.com"])
        try await world.setUp(["chats", "new", "bob@example.com", "bobby@example.com", "--title", "Bank"])
        try await world.setUp(["send", "Bank", "hello, bank", "--id", "hostile-1"])
        return world
    }

    private func setUp(_ arguments: [String], stdin: String = "") async throws {
        let run = try await execute(arguments, stdin: Array(stdin.utf8), environment: environment, output: .pipe)
        guard run.status == 0 else { throw SetUpFailure(message: "\(arguments) exited \(run.status): \(run.stderr)") }
    }

    private struct SetUpFailure: Error { let message: String }

    /// Runs one case, with its special files in place.
    func run(_ hostile: HostileCase) async throws -> Run {
        var environment = environment.merging(hostile.environment) { $1 }
        var arguments = hostile.arguments
        let scratch = home.appendingPathComponent("scratch")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        switch hostile.setup {
        case .none: break
        case .configFile(let bytes, let suffix):
            let file = scratch.appendingPathComponent("config" + suffix)
            try Data(bytes).write(to: file)
            arguments += ["--config", file.path]
        case .configFIFO:
            arguments += ["--config", try fifo(scratch.appendingPathComponent("config.yaml")).path]
        case .databaseFIFO:
            environment["MESSAGEAI_SQLITE_PATH"] = try fifo(scratch.appendingPathComponent("db.sqlite")).path
        case .foreignDatabase:
            let file = scratch.appendingPathComponent("foreign.sqlite")
            let foreign = try DatabaseQueue(path: file.path)
            try await foreign.write { db in try db.execute(sql: "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')") }
            try foreign.close()
            environment["MESSAGEAI_SQLITE_PATH"] = file.path
        case .textDatabase:
            let file = scratch.appendingPathComponent("text.sqlite")
            try Data("just some text\n".utf8).write(to: file)
            environment["MESSAGEAI_SQLITE_PATH"] = file.path
        case .sessionFile(let bytes):
            try Data(bytes).write(to: state.appendingPathComponent("sessions/hostile-sqlite.json"))
        case .sessionFIFO:
            _ = try fifo(state.appendingPathComponent("sessions/hostile-sqlite.json"))
        case .historyFIFO:
            try FileManager.default.createDirectory(at: state.appendingPathComponent("history"), withIntermediateDirectories: true)
            _ = try fifo(state.appendingPathComponent("history/hostile"))
        }
        let scratchBefore = try scratchContents(scratch)
        let run = try await execute(arguments, stdin: hostile.stdin, environment: environment, output: hostile.output)
        // A file another program owns is refused untouched.
        #expect(try scratchContents(scratch) == scratchBefore, "a file given as input was changed")
        return run
    }

    /// Removes what a case put in place.
    func cleanUp(_ hostile: HostileCase) throws {
        try? FileManager.default.removeItem(at: home.appendingPathComponent("scratch"))
        try? FileManager.default.removeItem(at: state.appendingPathComponent("sessions/hostile-sqlite.json"))
        try? FileManager.default.removeItem(at: state.appendingPathComponent("history/hostile"))
    }

    /// Everything a bad input must leave alone: every table's rows (not the session's last-use
    /// time, which a successful look-up may move), the session files and the history files.
    func snapshot() throws -> [String] {
        let reader = try DatabaseQueue(
            path: database.path,
            configuration: {
                var configuration = Configuration()
                configuration.readonly = true
                return configuration
            }())
        defer { try? reader.close() }
        var rows = try reader.read { db in
            // Search's index is derived from the messages, and brought up to date by any search.
            let tables = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'search_%' ORDER BY name
                    """)
            return try tables.flatMap { table -> [String] in
                let sql = table == "auth_sessions" ? "SELECT token_digest, user_id, created_at FROM auth_sessions" : "SELECT * FROM \(table)"
                return try Row.fetchAll(db, sql: sql).map { "\(table): \($0)" }.sorted()
            }
        }
        for folder in ["sessions", "history"] {
            let url = state.appendingPathComponent(folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path))?.sorted() ?? [] where !name.hasPrefix("hostile") {
                rows.append("\(folder)/\(name): \((try? Data(contentsOf: url.appendingPathComponent(name)).base64EncodedString()) ?? "?")")
            }
        }
        return rows
    }

    private func scratchContents(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { name in
            let path = folder.appendingPathComponent(name).path
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return name }
            return "\(name): \(try Data(contentsOf: URL(fileURLWithPath: path)).base64EncodedString())"
        }
    }

    private func fifo(_ url: URL) throws -> URL {
        try? FileManager.default.removeItem(at: url)
        guard mkfifo(url.path, 0o600) == 0 else { throw SetUpFailure(message: "mkfifo \(url.path) failed") }
        return url
    }

    /// Runs `messageai` to its end (killed after 15 s) on a thread of its own, as it blocks to wait and read.
    private func execute(_ arguments: [String], stdin: [UInt8], environment: [String: String], output: HostileCase.Output) async throws -> Run {
        try await OwnThread.run { [self] in
            let process = Process()
            let ended = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in ended.signal() }
            process.executableURL = messageai
            process.arguments = arguments
            process.environment = environment
            process.currentDirectoryURL = home
            let input = Pipe(), errors = Pipe()
            process.standardInput = input
            process.standardError = errors
            let out = Pipe()
            switch output {
            case .pipe: process.standardOutput = out
            case .full: process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
            case .closedPipe:
                process.standardOutput = out
                try out.fileHandleForReading.close()
            }
            try process.run()
            let writer = Thread {
                let descriptor = input.fileHandleForWriting.fileDescriptor
                var offset = 0
                while offset < stdin.count {
                    let written = stdin[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                    guard written > 0 else { break }
                    offset += written
                }
                try? input.fileHandleForWriting.close()
            }
            writer.start()
            let collected = Collected()
            for (pipe, key) in [(errors, \Collected.stderr), (out, \Collected.stdout)] where output == .pipe || pipe !== out {
                Thread { collected.set(key, pipe.fileHandleForReading.readDataToEndOfFile()) }.start()
            }
            let timedOut = ended.wait(timeout: .now() + 15) == .timedOut
            if timedOut { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            collected.waitForEnd(expecting: output == .pipe ? 2 : 1)
            return Run(
                status: process.terminationStatus, signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil,
                stdout: String(decoding: collected.stdout, as: UTF8.self), stderr: String(decoding: collected.stderr, as: UTF8.self),
                timedOut: timedOut)
        }
    }
}

/// What a process wrote, gathered by reader threads.
private final class Collected: @unchecked Sendable {
    private let lock = NSCondition()
    private var done = 0
    var stdout = Data()
    var stderr = Data()

    func set(_ key: ReferenceWritableKeyPath<Collected, Data>, _ data: Data) {
        lock.lock()
        self[keyPath: key] = data
        done += 1
        lock.broadcast()
        lock.unlock()
    }

    func waitForEnd(expecting count: Int) {
        let deadline = Date().addingTimeInterval(5)
        lock.lock()
        while done < count, lock.wait(until: deadline) {}
        lock.unlock()
    }
}
