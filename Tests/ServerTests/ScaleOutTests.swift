import Foundation
import HummingbirdWSClient
import Kernel
import Logging
import ServiceGraph
import TestSupport
import Testing

/// Several `messageai-server` processes on one PostgreSQL database, as behind a load balancer:
/// what one instance does is seen by the others.
@Suite("Scale-out", .timeLimit(.minutes(3)))
struct ScaleOutTests {
    /// Two server processes on a new database of the tests' PostgreSQL cluster.
    struct Instances {
        let folder: URL
        let database: String
        let a: ServerProcess
        let b: ServerProcess

        init(arguments: [String] = []) async throws {
            folder = try ServerWorld.makeFolder()
            database = try await PostgresCluster.shared().database()
            let options = ["--postgres-url", database] + arguments
            a = try await ServerProcess(databasePath: folder.appendingPathComponent("unused.sqlite").path, arguments: options)
            b = try await ServerProcess(databasePath: folder.appendingPathComponent("unused.sqlite").path, arguments: options)
        }

        /// Runs `sql` in the database with `psql`, as an operator would.
        func psql(_ sql: String) async throws -> String {
            try await PostgresCluster.shared().psql(sql, onDatabaseAt: database)
        }

        func remove() {
            a.stop()
            b.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// Opens an events socket of `token` on `server` and returns, once it stands, the task that
    /// ends with its close frame.
    private func openSocket(_ token: String, on server: ServerProcess) async throws -> Task<WebSocketCloseFrame?, any Error> {
        let (opened, open) = AsyncStream<Void>.makeStream()
        let socket = Task {
            try await WebSocketClient.connect(
                url: server.url.replacing("http", with: "ws") + EventSocketProtocol.path,
                configuration: .events(token: token), logger: Logger(label: "test")
            ) { inbound, _, _ in
                for try await _ in inbound { open.yield() }
            }
        }
        var ready = opened.makeAsyncIterator()
        _ = await ready.next()
        return socket
    }

    @Test("a session ended through instance A, or by an operator's DELETE in psql, closes its socket on instance B with 4401 within 2 s")
    func revocationReachesEveryInstance() async throws {
        let instances = try await Instances()
        defer { instances.remove() }
        let onA = HTTPProbe(base: instances.a.url), onB = HTTPProbe(base: instances.b.url)
        let ada = try await onA.signUp("Ada")
        let socket = try await openSocket(ada.token, on: instances.b)
        let revoked = ContinuousClock.now
        #expect(try await onA.send("DELETE", "/v1/auth/session", token: ada.token).status == 204)
        #expect(try await socket.value?.closeCode == .unknown(EventSocketProtocol.sessionEnded))
        let took = ContinuousClock.now - revoked
        #expect(took < .seconds(2), "the socket on B closed \(took) after the sign-out on A")
        #expect(try await onB.send("GET", "/v1/profiles/me", token: ada.token).status == 401)

        let grace = try await onB.signUp("Grace")
        let graceSocket = try await openSocket(grace.token, on: instances.b)
        let deleted = ContinuousClock.now
        _ = try await instances.psql("DELETE FROM auth_sessions")
        #expect(try await graceSocket.value?.closeCode == .unknown(EventSocketProtocol.sessionEnded))
        #expect(ContinuousClock.now - deleted < .seconds(2), "the socket outlived the operator's DELETE by \(ContinuousClock.now - deleted)")
    }

    @Test("the health check: 200 serving while the database answers, 503 'store unreachable' once it is gone")
    func healthFollowsTheStore() async throws {
        let instances = try await Instances()
        defer { instances.remove() }
        let probe = HTTPProbe(base: instances.a.url)
        let serving = try await probe.send("GET", "/v1/health")
        #expect(serving.status == 200 && serving.json?["status"] as? String == "serving")
        let name = PostgresCluster.name(ofDatabaseAt: instances.database)
        _ = try await PostgresCluster.shared().psql("DROP DATABASE \(name) WITH (FORCE)", in: "postgres")
        let gone = try await probe.send("GET", "/v1/health")
        #expect(gone.status == 503 && gone.json?["status"] as? String == "store unreachable", "\(gone.status) \(gone.json ?? [:])")
    }
}
