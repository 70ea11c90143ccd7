import AsyncHTTPClient
import Foundation
import Kernel
import NIOCore
import NIOSSL
import Synchronization

/// How a client reaches its server: the address, the time it waits, and the certificates it
/// trusts beside the system's. Shares one HTTP client per process and one events socket per
/// session token.
public final class RemoteConnection: Sendable {
    /// The server.
    public let server: ServerAddress
    /// Longest wait for a connection or an answer.
    public let timeout: Duration
    let http: HTTPClient
    let tls: TLSConfiguration
    let sockets = Mutex<[String: EventSocket]>([:])

    /// HTTP clients by timeout and trusted-certificate file, made once per process and never shut down:
    /// they live as long as the process does.
    private static let clients = Mutex<[String: (HTTPClient, TLSConfiguration)]>([:])

    /// Prepares the connection; nothing is sent yet.
    /// - Parameter trustedCertificates: a PEM file of certificates to trust besides the system's
    ///   (a server's self-signed certificate).
    /// - Throws: `AppError(.usage)` when the certificate file cannot be used.
    public init(server: ServerAddress, timeout: Duration, trustedCertificates: String?) throws {
        self.server = server
        self.timeout = timeout
        (http, tls) = try Self.clients.withLock { clients in
            let key = "\(timeout)|\(trustedCertificates ?? "")"
            if let made = clients[key] { return made }
            var tls = TLSConfiguration.makeClientConfiguration()
            if let trustedCertificates {
                do {
                    tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile(trustedCertificates))]
                } catch {
                    throw AppError(.usage, "the certificate file \(trustedCertificates) cannot be read as PEM certificates")
                }
            }
            // Reads time out too: a server that stops half-way through an answer does not hang the client.
            let wait = TimeAmount.seconds(max(1, timeout.components.seconds))
            var configuration = HTTPClient.Configuration(
                tlsConfiguration: tls, redirectConfiguration: .disallow,
                timeout: .init(connect: wait, read: wait))
            // A refused connection is an answer: say so at once rather than retry until the timeout.
            configuration.connectionPool.retryConnectionEstablishment = false
            // One process may send for several people at once (a load generator, a bot).
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            clients[key] = (client, tls)
            return (client, tls)
        }
    }

    /// The events socket of `token`, shared by every stream of this process that reads it.
    public func events(token: String) -> EventSocket {
        sockets.withLock { sockets in
            if let socket = sockets[token] { return socket }
            let socket = EventSocket(connection: self, token: token)
            sockets[token] = socket
            return socket
        }
    }

    /// The error for a server that cannot be reached.
    func unreachable(_ reason: String) -> AppError {
        AppError(.unavailable, "cannot reach the server at \(server): \(reason)")
    }
}
