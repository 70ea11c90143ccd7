import Foundation

/// `Tools/Deploy/stack` in a scratch folder, on ports of its own, running the `messageai-server`
/// built beside the running program: PostgreSQL, two instances and HAProxy, as an operator
/// trying the scaled-out server would start them.
public struct DeployStack: Sendable {
    /// The stack's folder (data, logs, pid files).
    public let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-stack-\(UUID().uuidString)")
    /// How many instances run behind the proxy (`stack start --instances`).
    public let instances: Int
    /// The proxy's port; the instances listen on the next `instances`.
    public let port: Int

    /// The command.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Tools/Deploy/stack").standardized.path

    /// The instances' settings, as an operator gives them: the environment. The load is many
    /// people's from one machine's address, so the per-address limits are lifted and password
    /// hashes are cheap; so are the per-person budgets, unless the stack measures them.
    public let settings: [String: String]

    /// A stack of `instances` instances (two, as an operator's layout has them), which lift the
    /// per-person budgets out of reach if `liftingBudgets`.
    public init(liftingBudgets: Bool = true, instances: Int = 2) {
        self.instances = instances
        port = TestPorts.reserve(consecutive: instances + 1)
        let addresses = [
            "MESSAGEAI_SERVER_AUTH_BCRYPT_COST": "4", "MESSAGEAI_SERVER_AUTH_SIGN_UP_BURST": "100000",
            "MESSAGEAI_SERVER_HTTP_CONNECTIONS_PER_ADDRESS": "100000",
        ]
        let budgets = [
            "MESSAGEAI_SERVER_BUDGET_MESSAGES_PER_MINUTE": "100000000", "MESSAGEAI_SERVER_BUDGET_FAN_OUT_MEGABYTES_PER_MINUTE": "1000000",
            "MESSAGEAI_SERVER_BUDGET_CONVERSATIONS_PER_HOUR": "100000000", "MESSAGEAI_SERVER_BUDGET_LOOKUPS_PER_MINUTE": "100000000",
            "MESSAGEAI_SERVER_BUDGET_REQUESTS_AT_ONCE": "100000",
        ]
        settings = liftingBudgets ? addresses.merging(budgets) { $1 } : addresses
    }

    /// The proxy's URL.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// The URL of instance `number` (from 1), straight.
    public func instance(_ number: Int) -> String { "http://127.0.0.1:\(port + number)" }

    /// The database's URL (its unix socket in the folder).
    public var databaseURL: String { "postgres://messageai@localhost/messageai?host=\(folder.path)/postgres" }

    /// Runs `stack COMMAND` on this stack.
    @discardableResult
    public func run(_ command: String) async throws -> SpawnedProgram.Run {
        let argv = [
            Self.script, command, "--folder", folder.path, "--port", String(port), "--instances", String(instances), "--server",
            ServerProcess.executable.path,
        ]
        return try await OwnThread.run { try SpawnedProgram.run(argv, environment: settings) }
    }

    /// The process id in `file` of the folder (`instance-1.pid`, `postgres/data/postmaster.pid`).
    public func pid(_ file: String) throws -> Int32 {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        guard let pid = text.split(separator: "\n").first.flatMap({ Int32($0.trimmingCharacters(in: .whitespaces)) }) else {
            throw StackError(description: "no process id in \(file)")
        }
        return pid
    }

    /// Runs `sql` in the database with `psql`, as an operator would; what it prints (unaligned, tuples only).
    public func psql(_ sql: String) throws -> String {
        let run = try SpawnedProgram.run(["/usr/bin/psql", "-h", "\(folder.path)/postgres", "-U", "messageai", "-d", "messageai", "-At", "-c", sql])
        guard run.status == 0 else { throw StackError(description: "psql failed: \(run.output)") }
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Kills instance `number` (1 or 2) with SIGKILL once the other answers its health check, and
    /// starts it again: one instance of the two down at a time.
    public func killInstance(_ number: Int) async throws {
        let survivor = instance(3 - number) + "/v1/health"
        for _ in 0..<200 {
            if try await OwnThread.run({ try SpawnedProgram.run(["/usr/bin/curl", "-sf", "-m", "1", survivor]).status }) == 0 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        kill(try pid("instance-\(number).pid"), SIGKILL)
        let restarted = try await run("start")
        guard restarted.status == 0 else { throw StackError(description: "the instance did not start again: \(restarted.output)") }
    }

    /// Kills PostgreSQL's postmaster with SIGKILL and starts it again as soon as it can be: once its
    /// backends, which end as they notice, have let go of the shared memory (within 20 s).
    public func killDatabase() async throws {
        kill(try pid("postgres/data/postmaster.pid"), SIGKILL)
        for attempt in 1...100 {
            let restarted = try await run("start")
            if restarted.status == 0 { return }
            if attempt == 100 { throw StackError(description: "PostgreSQL did not start again: \(restarted.output)") }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Stops everything and throws the folder away.
    public func remove() {
        _ = try? SpawnedProgram.run([Self.script, "stop", "--folder", folder.path])
        try? FileManager.default.removeItem(at: folder)
    }

    /// What went wrong with the stack.
    public struct StackError: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) { self.description = description }
    }
}
