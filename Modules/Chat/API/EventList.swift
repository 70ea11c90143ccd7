import Chat
import Kernel

/// Events after a cursor, oldest first.
public struct EventList: WireType, Equatable {
    /// The events, oldest first.
    public let events: [UserEvent]

    /// Creates the reply.
    public init(_ events: [UserEvent]) { self.events = events }

    public static let schema = WireSchema.object([("events", .array(UserEvent.schema, maxItems: ChatRules.catchUpLimit))], required: ["events"])
}
