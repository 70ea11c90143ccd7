/// One frame of the events socket.
public struct EventFrame<Event: WireEvent>: Codable, Sendable {
    /// `Event.type`.
    public let type: String
    /// The event's cursor: a client that reconnects asks for what came after the last one.
    public let cursor: EventCursor?
    /// The event.
    public let event: Event

    /// The frame carrying `event`.
    public init(_ event: Event) {
        type = Event.type
        cursor = event.cursor
        self.event = event
    }
}
