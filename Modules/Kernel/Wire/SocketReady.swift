/// Event: the server has subscribed the socket to every stream of the session; anything stored
/// from now on will arrive. The first frame of every socket.
public struct SocketReady: WireEvent, Equatable {
    public static let type = "socket.ready"

    /// Where the client stands when it did not ask to resume: the newest message of its
    /// conversations at subscription, so that a reconnection asks for what came after it.
    public let cursor: EventCursor?

    /// The event.
    public init(cursor: EventCursor? = nil) { self.cursor = cursor }

    public static let schema = WireSchema.object([("cursor", .nullable(.cursor))], required: [])
}
