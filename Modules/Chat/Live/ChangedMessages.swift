import Chat
import Kernel

/// The messages one read of change rows has decoded, by message: every change of a message read
/// together joins the same row as it is now, so its message is decoded once. A message with 1,900
/// reactions holds a list of 76 KB of who reacted, and a page of the event log may hold 500
/// changes of it.
struct ChangedMessages {
    private struct Key: Hashable {
        let conversationID: String
        let messageID: String
        /// A reaction's row is read without text or quote (`MessageRows.changeColumns`).
        let reacted: Bool
    }

    private var decoded: [Key: Message] = [:]

    /// The message of a `kind` change of message `messageID` in `conversationID`: the one decoded
    /// already, or `decode()`'s.
    mutating func message(_ messageID: String, in conversationID: String, changed kind: UserEvent.MessageChange,
                          _ decode: () throws -> Message) rethrows -> Message {
        let key = Key(conversationID: conversationID, messageID: messageID, reacted: kind == .reacted)
        if let message = decoded[key] { return message }
        let message = try decode()
        decoded[key] = message
        return message
    }
}
