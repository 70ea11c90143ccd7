/// A live event a feature sends over the events socket. Each kind has its own `type` name; a
/// frame is `{"type": <type>, "cursor": <cursor, if any>, "event": <the event>}`.
public protocol WireEvent: WireType {
    /// The frame's `type`, unique across features (`chat.message`).
    static var type: String { get }
    /// The cursor a client resumes after, for events that have one (messages).
    var cursor: EventCursor? { get }
}

extension WireEvent {
    /// None: only messages have cursors.
    public var cursor: EventCursor? { nil }
}
