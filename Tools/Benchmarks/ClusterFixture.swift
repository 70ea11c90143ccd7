import Foundation
import Kernel
import ServiceGraph
import TestSupport

/// The scaled-out server as `Tools/Deploy/stack` runs it, with the `messageai-server` built beside
/// this benchmark: a PostgreSQL cluster in a scratch folder (fsync on, as an operator runs it),
/// two instances and HAProxy in front of them. Clients either all go through the proxy, or
/// each sender goes straight to one instance and its receiver to the other, so that every
/// message crosses between instances.
struct ClusterFixture: LoadTarget {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-cluster-bench-\(UUID().uuidString)")
    let port = TestPorts.reserve(consecutive: 3)
    /// Whether every client goes through the proxy (else: senders and receivers on different instances).
    let throughProxy: Bool
    let graph: ServiceGraph

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Deploy/stack").standardized.path
    /// The instances' settings: the load is many people's, all from this machine's address.
    static let settings = [
        "MESSAGEAI_SERVER_AUTH_BCRYPT_COST": "4", "MESSAGEAI_SERVER_AUTH_SIGN_UP_BURST": "100000",
        "MESSAGEAI_SERVER_BUDGET_MESSAGES_PER_MINUTE": "100000000", "MESSAGEAI_SERVER_BUDGET_FAN_OUT_MEGABYTES_PER_MINUTE": "1000000",
        "MESSAGEAI_SERVER_BUDGET_CONVERSATIONS_PER_HOUR": "100000000", "MESSAGEAI_SERVER_BUDGET_LOOKUPS_PER_MINUTE": "100000000",
        "MESSAGEAI_SERVER_HTTP_CONNECTIONS_PER_ADDRESS": "100000",
    ]

    var url: String { "http://127.0.0.1:\(port)" }

    /// The URL of instance `number` (1 or 2), straight.
    func instance(_ number: Int) -> String { "http://127.0.0.1:\(port + number)" }

    func senderURL(_ index: Int) -> String { throughProxy ? url : instance(index % 2 + 1) }

    func receiverURL(_ index: Int) -> String { throughProxy ? url : instance((index + 1) % 2 + 1) }

    /// Starts the stack.
    /// - Throws: when it does not start (its output says why).
    init(throughProxy: Bool) async throws {
        self.throughProxy = throughProxy
        let argv = [Self.script, "start", "--folder", folder.path, "--port", String(port), "--server", ServerProcess.executable.path]
        let started = try await OwnThread.run { [argv] in try SpawnedProgram.run(argv, environment: Self.settings) }
        guard started.status == 0 else { throw AppError(.unavailable, "the stack did not start: \(started.output)") }
        graph = try ServiceGraph(GraphOptions(backend: .remote, sqlitePath: "", remoteURL: "http://127.0.0.1:\(port)"))
    }

    /// The database's URL (its unix socket in the folder).
    var databaseURL: String { "postgres://messageai@localhost/messageai?host=\(folder.path)/postgres" }

    /// Runs `sql` in the database with `psql`, as an operator would; what it prints (unaligned, tuples only).
    func psql(_ sql: String) throws -> String {
        let run = try SpawnedProgram.run(["/usr/bin/psql", "-h", "\(folder.path)/postgres", "-U", "messageai", "-d", "messageai", "-At", "-c", sql])
        guard run.status == 0 else { throw AppError(.internal, "psql failed: \(run.output)") }
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The process ids of the instances.
    func instancePIDs() throws -> [Int32] {
        try (1...2).map { number in
            let text = try String(contentsOf: folder.appendingPathComponent("instance-\(number).pid"), encoding: .utf8)
            return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
    }

    func stop() {
        _ = try? SpawnedProgram.run([Self.script, "stop", "--folder", folder.path])
        try? FileManager.default.removeItem(at: folder)
    }
}
