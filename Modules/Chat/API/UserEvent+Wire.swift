import Chat
import Kernel

extension UserEvent: WireType {
    /// Every kind in one shape: `event` holds `message` for a `chat.message` and the change's
    /// fields otherwise (see `UserEvent`).
    public static let schema = WireSchema.object([
        ("v", .integer(version...version)), ("type", .enumeration(types)), ("cursor", .cursor),
        ("event", .object([("message", Message.schema), ("conversationID", .identifier), ("userID", .identifier),
                           ("displayName", .string(maxLength: Validation.maxDisplayNameLength))], required: [])),
    ], required: ["v", "type", "event"])
}
