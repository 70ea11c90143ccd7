import Chat
import Kernel

extension Message: WireType {
    public static let schema = WireSchema.object([
        ("id", .identifier), ("conversationID", .identifier), ("senderID", .identifier),
        ("text", .string(maxLength: Validation.maxMessageLength)), ("sentAt", .timestamp), ("state", .enumeration(["pending", "sent", "failed"])),
        ("cursor", .string(minLength: 3, maxLength: 36)),
    ], required: ["id", "conversationID", "senderID", "text", "sentAt", "state"])
}
