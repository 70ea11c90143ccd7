import AuthServer
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

/// The server's composition root: opens the service graph over the SQLite file (the same feature
/// SQL implementations as the `sqlite` backend), serves the routes over HTTP(S) and WebSocket,
/// and shuts down gracefully on SIGTERM or SIGINT.
public struct MessageAIServer: Sendable {
    /// Longest a graceful shutdown may take before the server stops anyway.
    public static let shutdownLimit: Duration = .seconds(8)

    private let settings: ServerSettings
    private let logger: Logger

    /// Prepares a server with `settings`.
    public init(settings: ServerSettings) {
        self.settings = settings
        var logger = Logger(label: "messageai-server")
        logger.logLevel = Logger.Level(rawValue: settings.logLevel) ?? .info
        self.logger = logger
    }

    /// Runs until SIGTERM or SIGINT, then stops accepting, finishes requests in flight, closes
    /// sockets with "going away" and returns.
    /// - Throws: `AppError(.unavailable)` when the database cannot be opened or the port not bound.
    public func run() async throws {
        let folder = URL(fileURLWithPath: settings.sqlitePath).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw AppError(.unavailable, "cannot create the folder \(folder.path) for the database")
        }
        let graph = try ServiceGraph(GraphOptions(backend: .sqlite, sqlitePath: settings.sqlitePath, bcryptCost: settings.bcryptCost,
                                                  soleWriter: true, budget: ServerBudget(settings.budget).budget))
        let routes = try ServerRoutes(graph: graph, signInLimits: SignInLimits(
            signUpsPerAddress: RateLimiter(burst: settings.signUpBurst, refill: .seconds(3))), pingInterval: .seconds(settings.pingSeconds))
        let scheme = settings.tlsCertificate == nil ? "http" : "https"
        let host = settings.host, logger = logger
        // Hummingbird's own start-up line (info) would come before ours, which names the URL:
        // the framework logs from notice up.
        var frameworkLogger = logger
        frameworkLogger.logLevel = max(logger.logLevel, .notice)
        // A connection that sends no request for a minute is closed: silent connections cannot
        // pile up (events sockets answer the pings they get, `OpenSockets`).
        let admission = routes.admission
        var server = HTTPServerBuilder { responder in EventSocketChannel(responder: responder, admission: admission, idleTimeout: .seconds(60)) }
        if let certificate = settings.tlsCertificate, let key = settings.tlsKey {
            server = try .tls(server, tlsConfiguration: try Self.tls(certificate: certificate, key: key))
        }
        let app = Application(
            router: routes.router, server: server, configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.notice("listening on \(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)")
            },
            logger: frameworkLogger)
        var configuration = ServiceGroupConfiguration(services: [app, routes.sockets], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = Self.shutdownLimit
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
            var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain,
                                                                         privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
            configuration.minimumTLSVersion = .tlsv12
            configuration.cipherSuites = "ECDHE+AESGCM:ECDHE+CHACHA20"
            return configuration
        } catch {
            throw AppError(.usage, "cannot load the TLS certificate \(certificate) or key \(key): \(error)")
        }
    }
}
