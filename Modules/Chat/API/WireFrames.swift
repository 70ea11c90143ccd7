import Chat
import Kernel

/// The frames the server sends most, written with `WireText` rather than `JSONEncoder`: a
/// message's event, which every member's socket gets, and the reply to a send. Each is the
/// text `WireFormat.encoder()` gives for the same value (the tests compare them); the other
/// events and refusals are rare and go through the encoder.
public enum WireFrames {
    /// The frame of `event` when it is a message's; `nil` for the other kinds.
    public static func text(of event: UserEvent) -> [UInt8]? {
        guard case .message(let message) = event else { return nil }
        var text = WireText()
        text.object { frame in
            if let cursor = event.cursor { frame.field("cursor", cursor.description) }
            frame.field("event") { $0.field("message") { write(message, to: &$0) } }
            frame.field("type", UserEvent.messageType)
            frame.field("v", Int64(UserEvent.version))
        }
        return text.bytes
    }

    /// The frame of `reply` when it carries the stored message; `nil` for a refusal.
    public static func text(of reply: SendReply) -> [UInt8]? {
        guard let message = reply.message, reply.error == nil else { return nil }
        var text = WireText()
        text.object { frame in
            frame.field("message") { write(message, to: &$0) }
            frame.field("request", reply.request)
            frame.field("type", reply.type)
        }
        return text.bytes
    }

    /// `message`'s fields, in the order and shapes of its `Codable` encoding.
    private static func write(_ message: Message, to text: inout WireText) {
        text.field("conversationID", message.conversationID.rawValue)
        if let cursor = message.cursor { text.field("cursor", cursor.description) }
        if let reason = message.failureReason { text.field("failureReason", reason) }
        text.field("id", message.id.rawValue)
        text.field("senderID", message.senderID.rawValue)
        text.field("sentAt", WireFormat.milliseconds(message.sentAt))
        text.field("state", message.state.rawValue)
        text.field("text", message.text)
    }
}
