import Chat
import Kernel

extension Message: WireType {
    public static let schema = WireSchema.object([
        ("id", .identifier), ("conversationID", .identifier), ("senderID", .identifier),
        ("text", .string(maxLength: Validation.maxMessageLength)), ("sentAt", .timestamp), ("state", .enumeration(["pending", "queued", "sent", "failed"])),
        ("cursor", .cursor), ("failureReason", .string(maxLength: 1_000)),
    ], required: ["id", "conversationID", "senderID", "text", "sentAt", "state"])
}
