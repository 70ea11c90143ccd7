import Chat
import Kernel

/// Messages after a cursor, oldest first.
public struct MessageList: WireType, Equatable {
    /// The messages, oldest first.
    public let messages: [Message]

    /// Creates the reply.
    public init(_ messages: [Message]) { self.messages = messages }

    public static let schema = WireSchema.object([("messages", .array(Message.schema, maxItems: ChatRules.catchUpLimit))], required: ["messages"])
}
