import Foundation
import HummingbirdWSClient
import Kernel
import ServiceGraph
import TestSupport

/// A server for a test over a SQLite file in a scratch folder, and a raw HTTP probe of it.
protocol TestServer: Sendable {
    /// The scratch folder, removed after the test.
    var folder: URL { get }
    /// The server's URL (`http://…:<port>`).
    var url: String { get }
    var probe: HTTPProbe { get }
}

extension TestServer {
    /// The port the server listens on.
    var port: Int { URL(string: url)?.port ?? 0 }

    /// The events socket's URL (`ws://…/v1/events`).
    var eventsURL: String { url.replacing("http", with: "ws") + EventSocketProtocol.path }

    /// A client process's service graph over this server (one connection, one events socket per session).
    func remoteGraph() throws -> ServiceGraph { try ServiceGraph(GraphOptions(backend: .remote, sqlitePath: "", remoteURL: url)) }

    /// A client machine of this server (its own state directory in the folder).
    func machine(_ name: String, url: String? = nil) -> Machine { Machine(name, in: folder, server: url ?? self.url) }

    /// A new scratch folder.
    static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-server-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// A real `messageai-server` process, for what needs one: signals, `kill -9`, TLS, the
/// executable's own options (`InProcessServer` is for the rest).
struct ServerWorld: TestServer {
    let folder: URL
    let server: ServerProcess
    let probe: HTTPProbe

    var url: String { server.url }

    /// Starts a server; `arguments` may prepare files in the folder (a certificate) and name
    /// them; `environment` adds to its first run's (a `FaultPoint`).
    init(environment: [String: String] = [:], arguments: (URL) async throws -> [String] = { _ in [] }) async throws {
        folder = try Self.makeFolder()
        server = try await ServerProcess(
            databasePath: folder.appendingPathComponent("server.sqlite").path, arguments: try await arguments(folder),
            environment: environment)
        probe = HTTPProbe(base: server.url)
    }

    /// Stops the server and removes the folder.
    func remove() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

extension WebSocketClientConfiguration {
    /// A bare client's settings for the events socket of `token`'s session, taking frames of up
    /// to `maxFrameSize` bytes.
    static func events(token: String, maxFrameSize: Int = EventSocketProtocol.maxFrameBytes) -> Self {
        var configuration = WebSocketClientConfiguration(maxFrameSize: maxFrameSize)
        configuration.additionalHeaders[.authorization] = "Bearer \(token)"
        return configuration
    }
}
