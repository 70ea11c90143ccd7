/// Event: the server has subscribed the socket to every stream of the session; anything stored
/// from now on will arrive. The first frame of every socket.
public struct SocketReady: WireEvent, Equatable {
    public static let type = "socket.ready"

    /// The event.
    public init() {}

    public static let schema = WireSchema.object([], required: [])
}
