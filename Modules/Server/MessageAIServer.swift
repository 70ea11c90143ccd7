import Auth
import AuthServer
import Files
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Kernel
import Logging
import NIOCore
import NIOSSL
import ServerSupport
import ServiceGraph
import ServiceLifecycle

/// The server's composition root, in two steps as Hummingbird's template has them: build the
/// application (the service graph over the SQLite file, the same feature SQL implementations as
/// the `sqlite` backend; the routes, the events socket, TLS), then run it until SIGTERM or
/// SIGINT. Tests run the built application in their own process (HummingbirdTesting).
public enum MessageAIServer {
    /// Longest a graceful shutdown may take before the server stops anyway.
    public static let shutdownLimit: Duration = .seconds(8)

    /// The logger of a server with `settings`: its level is `log.level`.
    public static func logger(_ settings: ServerSettings) -> Logger {
        var logger = Logger(label: "messageai-server")
        logger.logLevel = Logger.Level(rawValue: settings.logLevel) ?? .info
        return logger
    }

    /// Opens the service graph a server with `settings` serves: the PostgreSQL database when
    /// `postgres.url` is set (reached and migrated), else the SQLite file (its folder made if
    /// missing), written by this process alone; under the settings' budgets; each entry of the
    /// audit record is also handed to `auditLog`.
    /// - Throws: `AppError(.unavailable)` when the folder or the database cannot be opened.
    public static func openGraph(_ settings: ServerSettings, auditLog: @escaping @Sendable (AuditEntry) -> Void = { _ in }) async throws
        -> ServiceGraph
    {
        let budget = ServerBudget(settings.budget).budget
        if let url = settings.postgresURL {
            var options = GraphOptions(
                backend: .postgres, sqlitePath: "", bcryptCost: settings.bcryptCost, soleWriter: true,
                budget: budget, postgresURL: url, postgresConnections: settings.postgresConnections, fileLimits: settings.fileLimits,
                registration: settings.registration)
            (options.auditLog, options.invitesByEveryone) = (auditLog, settings.invitesByEveryone)
            return try await ServiceGraph.open(options)
        }
        let folder = URL(fileURLWithPath: settings.sqlitePath).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw AppError(.unavailable, "cannot create the folder \(folder.path) for the database")
        }
        var options = GraphOptions(
            backend: .sqlite, sqlitePath: settings.sqlitePath, bcryptCost: settings.bcryptCost,
            soleWriter: true, budget: budget, fileLimits: settings.fileLimits, registration: settings.registration)
        (options.auditLog, options.invitesByEveryone) = (auditLog, settings.invitesByEveryone)
        return try ServiceGraph(options)
    }

    /// The application serving `graph` as `settings` say, listening once it runs: every route,
    /// the events socket (its open sockets are a service of the application, closed with
    /// "going away" when it shuts down), and TLS when a certificate is given. Its first log line
    /// at `notice` names the URL it listens on.
    /// - Throws: `AppError(.usage)` when the certificate or key cannot be loaded.
    public static func buildApplication(_ settings: ServerSettings, graph: ServiceGraph, logger: Logger) throws -> some ApplicationProtocol {
        try buildApplication(settings, routes: try routes(settings, graph: graph), logger: logger)
    }

    /// Every route over `graph` as `settings` say.
    private static func routes(_ settings: ServerSettings, graph: ServiceGraph) throws -> ServerRoutes {
        try ServerRoutes(
            graph: graph,
            signInLimits: SignInLimits(
                signUpsPerAddress: RateLimiter(burst: settings.signUpBurst, refill: .seconds(3))), pingInterval: .seconds(settings.pingSeconds),
            queueFrames: settings.socketQueueFrames, proxies: settings.trustedProxies, requestsAtOnce: settings.requestsAtOnce)
    }

    private static func buildApplication(_ settings: ServerSettings, routes: ServerRoutes, logger: Logger) throws -> some ApplicationProtocol {
        let scheme = settings.tlsCertificate == nil ? "http" : "https"
        let (host, registration) = (settings.host, settings.registration)
        // Hummingbird's own start-up line (info) would come before ours, which names the URL:
        // the framework logs from notice up.
        var frameworkLogger = logger
        frameworkLogger.logLevel = max(logger.logLevel, .notice)
        // A connection that sends no request for a minute is closed: silent connections cannot
        // pile up (events sockets answer the pings they get, `OpenSockets`).
        let admission = routes.admission
        let connections = AddressConnections(limit: settings.connectionsPerAddress)
        var server = HTTPServerBuilder { responder in
            EventSocketChannel(
                responder: responder, admission: admission, idleTimeout: .seconds(settings.idleSeconds), connections: connections,
                proxies: settings.trustedProxies)
        }
        if let certificate = settings.tlsCertificate, let key = settings.tlsKey {
            server = try .tls(server, tlsConfiguration: try tls(certificate: certificate, key: key))
        }
        return Application(
            router: routes.router, server: server, configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: nil),
            services: [routes.sockets],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.notice("listening on \(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)")
                let who: [RegistrationMode: String] = [
                    .open: "anyone who reaches this server may make an account",
                    .invite: "new accounts need an invitation code (messageai-server admin invites create)",
                    .closed: "no new accounts",
                ]
                logger.notice("registration \(registration.rawValue): \(who[registration] ?? "")")
            },
            logger: frameworkLogger)
    }

    /// Builds the server and runs it until SIGTERM or SIGINT, then drains (the health check
    /// says 503, sockets are closed with "going away" over about two seconds), stops accepting,
    /// finishes requests in flight and returns.
    /// - Throws: `AppError(.unavailable)` when the database cannot be opened or the port not bound.
    public static func run(_ settings: ServerSettings) async throws {
        let logger = logger(settings)
        // Before anything that reports makes its metrics, so that they report to the registry.
        ServerMetrics.bootstrap()
        let graph = try await openGraph(settings) { entry in
            logger.notice(
                "audit",
                metadata: [
                    "at": "\(entry.at.formatted(.iso8601))", "actor": "\(entry.actor)", "action": "\(entry.action)", "subject": "\(entry.subject)",
                ])
        }
        defer { graph.close() }
        let routes = try routes(settings, graph: graph)
        let app = try buildApplication(settings, routes: routes, logger: logger)
        var configuration = ServiceGroupConfiguration(
            services: [app, OpenSockets.Drain(sockets: routes.sockets)] + PeriodicPass.passes(settings, graph: graph, logger: logger),
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = shutdownLimit
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch let error as IOError {
            throw AppError(.unavailable, "cannot serve on \(settings.host):\(settings.port): \(String(cString: strerror(error.errnoCode)))")
        }
        logger.notice("stopped")
    }

    /// TLS 1.2 at least, and in 1.2 only key exchanges with forward secrecy (ECDHE) and
    /// authenticated ciphers (AES-GCM, ChaCha20-Poly1305); 1.3 has nothing else.
    private static func tls(certificate: String, key: String) throws -> TLSConfiguration {
        do {
            let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain,
                privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
            configuration.minimumTLSVersion = .tlsv12
            configuration.cipherSuites = "ECDHE+AESGCM:ECDHE+CHACHA20"
            return configuration
        } catch {
            throw AppError(.usage, "cannot load the TLS certificate \(certificate) or key \(key): \(error)")
        }
    }
}
