/// Event: the cursor the socket was opened after is not this server's (its store was replaced):
/// what follows is live only, and the client reloads what it shows.
public struct SocketReset: WireEvent, Equatable {
    public static let type = "socket.reset"

    /// The event.
    public init() {}

    public static let schema = WireSchema.object([], required: [])
}
