import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MessageAIServer
import TestSupport

/// The server's application run in the test's process by HummingbirdTesting, over a SQLite
/// file in a scratch folder: on a real socket of localhost (`live`), or the router alone with
/// no connection (`router`). It starts with the settings `ServerProcess` gives (a cheap bcrypt
/// cost, the budgets lifted), as a test's `adjust` changes them.
struct InProcessServer: TestServer {
    let folder: URL
    let url: String
    let probe: HTTPProbe
    private let captured: LogCapture

    /// Everything the server has logged so far.
    var log: String { captured.text }

    /// Runs `body` against the application listening on a free port.
    static func live<Value: Sendable>(
        _ adjust: (inout ServerSettings) -> Void = { _ in },
        _ body: @escaping @Sendable (InProcessServer) async throws -> Value
    ) async throws -> Value {
        let (folder, log, app) = try await application(adjust)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await app.test(.live) { client in
            guard let port = client.port else { throw ProbeError(description: "the test server has no port") }
            let url = "http://localhost:\(port)"
            return try await body(InProcessServer(folder: folder, url: url, probe: HTTPProbe(base: url), captured: log))
        }
    }

    /// Runs `body` with a probe whose requests go straight to the router (each from the
    /// address `unknown`).
    static func router<Value: Sendable>(
        _ adjust: (inout ServerSettings) -> Void = { _ in },
        _ body: @escaping @Sendable (HTTPProbe) async throws -> Value
    ) async throws -> Value {
        let (folder, _, app) = try await application(adjust)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await app.test(.router) { client in try await body(HTTPProbe(router: client)) }
    }

    /// The application over a new scratch folder, logging into a capture.
    private static func application(_ adjust: (inout ServerSettings) -> Void) async throws -> (URL, LogCapture, some ApplicationProtocol) {
        let folder = try makeFolder()
        var settings = ServerSettings(environment: [:])
        settings.sqlitePath = folder.appendingPathComponent("server.sqlite").path
        settings.port = 0
        settings.bcryptCost = 4
        settings.budget.messagesPerMinute = 100_000_000
        settings.budget.fanOutMegabytesPerMinute = 1_000_000
        settings.budget.conversationsPerHour = 100_000_000
        settings.budget.renamesPerHour = 100_000_000
        settings.budget.lookupsPerMinute = 100_000_000
        settings.requestsAtOnce = 100_000
        adjust(&settings)
        let log = LogCapture()
        var logger = Logger(label: "messageai-server") { _ in LogCapture.Handler(capture: log) }
        logger.logLevel = MessageAIServer.logger(settings).logLevel
        return (folder, log, try MessageAIServer.buildApplication(settings, graph: try await MessageAIServer.openGraph(settings), logger: logger))
    }
}
