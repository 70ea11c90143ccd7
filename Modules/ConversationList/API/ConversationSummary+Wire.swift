import ConversationList
import Kernel

extension ConversationSummary: WireType {
    public static let schema = WireSchema.object([
        ("id", .identifier), ("title", .string(maxLength: Validation.maxTitleLength)), ("isGroup", .boolean),
        ("memberIDs", .array(.identifier, maxItems: GroupRequest.maxMembers + 1)),
        ("lastMessage", .nullable(.object([
            ("id", .identifier), ("senderID", .identifier), ("text", .string(maxLength: Validation.maxMessageLength)), ("sentAt", .timestamp),
        ], required: ["id", "senderID", "text", "sentAt"]))),
        ("unreadCount", .integer(0...Int(Int32.max))), ("lastActivityAt", .timestamp),
    ], required: ["id", "title", "isGroup", "memberIDs", "unreadCount", "lastActivityAt"])
}
