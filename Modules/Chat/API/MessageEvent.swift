import Chat
import Kernel

/// Event: a message was stored in one of the reader's conversations.
public struct MessageEvent: WireEvent, Equatable {
    public static let type = "chat.message"

    /// The stored message.
    public let message: Message

    /// The message's cursor: a reconnecting client resumes after it.
    public var cursor: EventCursor? { message.cursor }

    /// The event for `message`.
    public init(_ message: Message) { self.message = message }

    public static let schema = WireSchema.object([("message", Message.schema)], required: ["message"])
}
