import Foundation
import ServiceGraph
import TestSupport

/// A scratch folder with a running `messageai-server` over a SQLite file in it, and a raw HTTP
/// probe of it.
struct ServerWorld {
    let folder: URL
    let server: ServerProcess
    let probe: HTTPProbe

    /// Starts a server; `arguments` may prepare files in the folder (a certificate) and name them.
    init(arguments: (URL) async throws -> [String] = { _ in [] }) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-server-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        server = try await ServerProcess(databasePath: folder.appendingPathComponent("server.sqlite").path, arguments: try await arguments(folder))
        probe = HTTPProbe(base: server.url)
    }

    /// A client process's service graph over this server (one connection, one events socket per session).
    func remoteGraph() throws -> ServiceGraph { try ServiceGraph(GraphOptions(backend: .remote, sqlitePath: "", remoteURL: server.url)) }

    /// A client machine of this server (its own state directory in the folder).
    func machine(_ name: String, url: String? = nil) -> Machine { Machine(name, in: folder, server: url ?? server.url) }

    /// Stops the server and removes the folder.
    func remove() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
