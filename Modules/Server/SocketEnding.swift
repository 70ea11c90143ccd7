import Kernel
import NIOWebSocket

/// Why the server ends an events socket, and the close frame that says so.
enum SocketEnding: Sendable {
    /// The client did not take a frame for `EventSocketProtocol.slowAfter`.
    case tooSlow
    /// The session was revoked or expired.
    case sessionEnded
    /// The server is stopping.
    case shuttingDown
    /// The store's stream ended (a failed read, a replaced store, a reader too far behind).
    case streamEnded

    var frame: (code: WebSocketErrorCode, reason: String) {
        switch self {
        case .tooSlow: (.unknown(EventSocketProtocol.tooSlow), "too slow: reconnect")
        case .sessionEnded: (.unknown(EventSocketProtocol.sessionEnded), "session ended")
        case .shuttingDown: (.goingAway, "server shutting down")
        case .streamEnded: (.unexpectedServerError, "stream ended: reconnect")
        }
    }

    /// Whether the client may not even take the close frame, so the connection is cut after a grace.
    var cutsAfterGrace: Bool { self == .tooSlow || self == .shuttingDown }
}
