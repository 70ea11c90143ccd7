import Chat
import Kernel

extension Message: WireType {
    public static let schema = WireSchema.object([
        ("id", .identifier), ("conversationID", .identifier), ("senderID", .identifier),
        ("text", .string(maxLength: Validation.maxMessageLength)), ("sentAt", .timestamp), ("cursor", .cursor),
    ], required: ["id", "conversationID", "senderID", "text", "sentAt"])
}
