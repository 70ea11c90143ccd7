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
