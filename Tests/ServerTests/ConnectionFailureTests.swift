import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import Testing

@testable import RemoteClient

/// A connection failure is explained from its error's type, whatever the error's text says.
@Suite("Connection failures", .timeLimit(.minutes(1)))
struct ConnectionFailureTests {
    @Test(
        "socket errors by errno, NIO's, TLS's and the HTTP client's by case",
        arguments: [
            (IOError(errnoCode: ECONNREFUSED, reason: "connect"), "connection refused"),
            (IOError(errnoCode: ECONNRESET, reason: "read"), "it closed the connection (is it an https server, reached with http?)"),
            (IOError(errnoCode: ETIMEDOUT, reason: "connect"), "timed out"),
            (IOError(errnoCode: EHOSTUNREACH, reason: "connect"), "no route to it"),
            (ChannelError.connectTimeout(.seconds(1)), "timed out"),
            (ChannelError.eof, "it closed the connection (is it an https server, reached with http?)"),
            (NIOSSLError.uncleanShutdown, "it closed the connection (is it an https server, reached with http?)"),
            (NIOSSLError.handshakeFailed(.sslError([])), "TLS failed"),
            (HTTPClientError.remoteConnectionClosed, "it closed the connection (is it an https server, reached with http?)"),
            (HTTPClientError.connectTimeout, "timed out"),
        ] as [(any Error & Sendable, String)])
    func reasons(error: any Error & Sendable, reason: String) {
        #expect(RemoteConnection.reason(error) == reason)
    }
}
