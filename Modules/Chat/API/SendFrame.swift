import Chat
import Kernel

/// A send over the events socket, the same as `PUT …/messages/{id}` without an HTTP request of
/// its own: `{"type": "chat.send", "id": …, "conversation": …, "text": …}`. The server answers
/// with a `SendReply` whose `request` is `id`, after the message has committed; the message's
/// own `chat.message` event comes first, like any other.
public struct SendFrame: Codable, Sendable, Equatable {
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

    /// The frame sending `text` as message `id` to `conversation`.
    public init(id: MessageID, conversation: ConversationID, text: String) {
        type = Self.type
        self.id = id
        self.conversation = conversation
        self.text = text
    }
}
