/// The rules of the events socket, `GET /v1/events` upgraded to a WebSocket: the server sends
/// JSON text frames (`EventFrame`) for the session in the `Authorization` header and closes with
/// one of these codes when it ends the socket itself. A client may also send requests on it (a
/// text frame with a `type` and an `id`), each answered by one frame of type `replyType` whose
/// `request` is that id.
public enum EventSocketProtocol {
    /// Where the socket is opened; `?after=<cursor>` resumes after the last cursor received.
    public static let path = "/v1/events"
    /// Largest frame either side accepts, in bytes.
    public static let maxFrameBytes = 64 * 1_024
    /// Close code: the session was revoked or expired; the client signs in again.
    public static let sessionEnded: UInt16 = 4_401
    /// Close code: the client read too slowly: a write to it waited `slowAfter`; it reconnects.
    public static let tooSlow: UInt16 = 4_408
    /// How long a frame queued for a client may wait before the client counts as too slow.
    public static let slowAfter: Duration = .seconds(2)
    /// How long the server lets a socket stay silent before it pings it; a socket that answers
    /// nothing (no pong, no frame) for twice this long is closed as dead.
    public static let pingInterval: Duration = .seconds(30)
    /// The `type` of the frame that answers a client's request.
    public static let replyType = "reply"
    /// Most requests of one socket being answered at once; past it a request is refused at once.
    public static let maxPendingRequests = 64
    /// Sockets one account may have open at once (each client process opens one).
    public static let socketsPerUser = 8
}
