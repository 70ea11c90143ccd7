import Chat
import Kernel

/// Chat's part of the events socket (`EventSocketProtocol`): the send a client makes on it,
/// the server's reply, the frames written by hand, and the schema of the events it carries.
public enum ChatSocket {
    /// A send over the events socket, the same as `PUT …/messages/{id}` without an HTTP request of
    /// its own: `{"type": "chat.send", "id": …, "conversation": …, "text": …, "replyTo"?: …}`. The server answers
    /// with a `SendReply` whose `request` is `id`, after the message has committed; the message's
    /// own `chat.message` event comes first, like any other.
    public struct SendFrame: EventSocketProtocol.Request, Codable, Equatable {
        /// The frame's `type`.
        public static let type = "chat.send"

        /// Always `SendFrame.type`.
        public let type: String
        /// The message's id, chosen by the client; a second send of it is stored once.
        public let id: MessageID
        /// The conversation it goes to.
        public let conversation: ConversationID
        /// The message text.
        public let text: String
        /// The message of the same conversation it answers, if any (absent for none).
        public let replyTo: MessageID?

        /// The frame sending `text` as message `id` to `conversation`, answering `replyTo`.
        public init(id: MessageID, conversation: ConversationID, text: String, replyTo: MessageID? = nil) {
            type = Self.type
            self.id = id
            self.conversation = conversation
            self.text = text
            self.replyTo = replyTo
        }
    }

    /// A typing notice over the events socket, the same as `PUT …/typing` without an HTTP
    /// request of its own: `{"type": "chat.typing", "id": …, "conversation": …, "typing": true}`.
    /// The server answers with an `EventSocketProtocol.Answer` whose `request` is `id`: done, or the
    /// refusal (not a member); a frame with no `id` gets no answer.
    public struct TypingFrame: EventSocketProtocol.Request, Codable, Equatable {
        /// The frame's `type`: a client's typing notice is named as the server's (`TypingNotice.type`).
        public static var type: String { TypingNotice.type }

        /// Always `TypingNotice.type`.
        public let type: String
        /// The request's id, chosen by the client, if it wants the answer.
        public let id: String?
        /// Where the sender types.
        public let conversation: ConversationID
        /// Whether they type, or stopped.
        public let typing: Bool

        /// The frame saying whether the sender is `typing` in `conversation`, answered as request `id`.
        public init(id: String?, conversation: ConversationID, typing: Bool) {
            type = TypingNotice.type
            self.id = id
            self.conversation = conversation
            self.typing = typing
        }
    }

    /// The server's answer to a `SendFrame`: `{"type": "reply", "request": <the send's id>,
    /// "message": {…}}` once the message is stored, or `…, "error": {"kind", "message"}}` when it is
    /// refused, with the error a `PUT` would have been answered with.
    public struct SendReply: Codable, Sendable {
        /// Always `EventSocketProtocol.replyType`.
        public let type: String
        /// The id of the message sent.
        public let request: String
        /// The stored message; `nil` when refused.
        public let message: Message?
        /// Why it was refused.
        public let error: WireError.Detail?

        /// The reply to the send of `request`: `stored` or the refusal `error`.
        public init(request: String, _ outcome: Result<Message, AppError>) {
            type = EventSocketProtocol.replyType
            self.request = request
            switch outcome {
            case .success(let message): (self.message, error) = (message, nil)
            case .failure(let refusal): (message, error) = (nil, WireError(refusal).error)
            }
        }

        /// The stored message, or the refusal as the `AppError` a local backend would throw.
        public func stored() throws -> Message {
            if let message { return message }
            guard let error else { throw AppError(.internal, "the server answered the send with neither a message nor an error") }
            throw error.appError
        }
    }

    /// The frames the server sends most, written with `WireText` rather than `JSONEncoder`: a
    /// message's event, which every member's socket gets, a reaction's, of which a reader who
    /// reacted gets a copy of their own (`UserEvent.seen(by:apart:)`), and the reply to a send. Each is the
    /// text `WireFormat.encoder()` gives for the same value (the tests compare them); the other
    /// events and refusals are rare and go through the encoder.
    public enum Frames {
        /// The frame of `event` when it is a message's (without reactions, a reply's quote or
        /// mentions, as most new ones are) or a reaction's; `nil` for the other kinds.
        public static func text(of event: UserEvent) -> [UInt8]? {
            if case .reacted(let reactions, let cursor) = event { return text(of: reactions, at: cursor) }
            guard case .message(let message) = event, message.reactionCounts.isEmpty, message.replyTo == nil, message.mentions.isEmpty else {
                return nil
            }
            var text = WireText()
            text.object { frame in
                if let cursor = event.cursor { frame.field("cursor", cursor.description) }
                frame.field("event") { $0.field("message") { write(message, to: &$0) } }
                frame.field("type", UserEvent.messageType)
                frame.field("v", Int64(UserEvent.version))
            }
            return text.bytes
        }

        /// The frame of a `chat.reacted` event.
        private static func text(of reactions: MessageReactions, at cursor: EventCursor) -> [UInt8] {
            var text = WireText()
            text.object { frame in
                frame.field("cursor", cursor.description)
                frame.field("event") { event in
                    event.field("conversationID", reactions.conversationID.rawValue)
                    event.field("messageID", reactions.messageID.rawValue)
                    event.field("reactionCounts", map: reactions.reactionCounts) { $0.value(Int64($1)) }
                    event.field("reactions", map: reactions.reactions) { $0.value($1.map(\.rawValue)) }
                }
                frame.field("type", UserEvent.MessageChange.reacted.rawValue)
                frame.field("v", Int64(UserEvent.version))
            }
            return text.bytes
        }

        /// The frame of `reply` when it carries the stored message; `nil` for a refusal.
        public static func text(of reply: SendReply) -> [UInt8]? {
            guard let message = reply.message, message.reactionCounts.isEmpty, message.replyTo == nil, message.mentions.isEmpty, reply.error == nil
            else {
                return nil
            }
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
            if message.deleted { text.field("deleted", true) }
            if let editedAt = message.editedAt { text.field("editedAt", WireFormat.milliseconds(editedAt)) }
            text.field("id", message.id.rawValue)
            text.field("senderID", message.senderID.rawValue)
            text.field("sentAt", WireFormat.milliseconds(message.sentAt))
            text.field("text", message.text)
            if message.version > 0 { text.field("version", Int64(message.version)) }
        }
    }
}

extension UserEvent: WireType {
    /// Every kind in one shape: `event` holds `message` for a `chat.message`, `chat.edited` and
    /// `chat.deleted`, the message's id and reactions for a `chat.reacted`, and the change's
    /// fields otherwise (see `UserEvent`).
    public static let schema = WireSchema.object(
        [
            ("v", .integer(version...version)), ("type", .enumeration(types)), ("cursor", .cursor),
            (
                "event",
                .object(
                    [
                        ("message", Message.schema), ("conversationID", .identifier), ("userID", .identifier),
                        ("displayName", .string(maxLength: Validation.maxDisplayNameLength)), ("messageID", .identifier),
                        ("reactions", Message.reactionsSchema), ("reactionCounts", Message.reactionCountsSchema),
                    ], required: [])
            ),
        ], required: ["v", "type", "event"])
}

extension TypingNotice: EventSocketProtocol.FrameEvent {
    /// The `type` of a typing notice's frame, from the server (`{"type": "chat.typing", "event":
    /// {"conversationID", "userID", "typing"}}`) and from a client (`ChatSocket.TypingFrame`).
    public static let type = "chat.typing"

    public static let schema = WireSchema.object(
        [("conversationID", .identifier), ("userID", .identifier), ("typing", .boolean)],
        required: ["conversationID", "userID", "typing"])
}
