/// A live event a feature sends over the events socket. Each kind has its own `type` name; a
/// frame is `{"type": <type>, "event": <the event>}`.
public protocol WireEvent: WireType {
    /// The frame's `type`, unique across features (`chat.message`).
    static var type: String { get }
}

/// One frame of the events socket.
public struct EventFrame<Event: WireEvent>: Codable, Sendable {
    /// `Event.type`.
    public let type: String
    /// The event.
    public let event: Event

    /// The frame carrying `event`.
    public init(_ event: Event) {
        type = Event.type
        self.event = event
    }
}

/// The part of a frame every reader looks at first, to know which event follows.
public struct EventFrameHeader: Decodable, Sendable {
    /// The event's type name.
    public let type: String
}
