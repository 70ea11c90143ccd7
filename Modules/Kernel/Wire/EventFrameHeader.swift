/// The part of a frame every reader looks at first, to know which event follows.
public struct EventFrameHeader: Decodable, Sendable {
    /// The event's type name.
    public let type: String
    /// The event's cursor, if it has one.
    public let cursor: EventCursor?
    /// For a reply (`EventSocketProtocol.replyType`), the id of the request it answers.
    public let request: String?
}
