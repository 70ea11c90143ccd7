import Kernel
import NIOWebSocket

/// Why the server ends an events socket, and the close frame that says so.
enum SocketEnding: Sendable {
    /// The client did not take its frames: one waited `EventSocketProtocol.slowAfter`, or more
    /// queued up than `EventConnection` holds.
    case tooSlow
    /// The session was revoked or expired.
    case sessionEnded
    /// The server is stopping.
    case shuttingDown
    /// The store's stream ended (a failed read, a replaced store).
    case streamEnded
    /// The client answered no ping for twice `EventSocketProtocol.pingInterval`.
    case unanswered

    var frame: (code: WebSocketErrorCode, reason: String) {
        switch self {
        case .tooSlow: (.unknown(EventSocketProtocol.tooSlow), "too slow: reconnect")
        case .sessionEnded: (.unknown(EventSocketProtocol.sessionEnded), "session ended")
        case .shuttingDown: (.goingAway, "server shutting down")
        case .streamEnded: (.unexpectedServerError, "stream ended: reconnect")
        case .unanswered: (.goingAway, "no answer to pings")
        }
    }
}
