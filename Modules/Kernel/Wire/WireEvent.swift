/// A live event a feature sends over the events socket. Each kind has its own `type` name; a
/// frame is `{"type": <type>, "event": <the event>}`.
public protocol WireEvent: WireType {
    /// The frame's `type`, unique across features (`chat.message`).
    static var type: String { get }
}
