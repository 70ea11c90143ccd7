/// What the chat screen shows: messages oldest first, including local pending and failed sends.
public struct Timeline: Equatable, Sendable {
    /// Messages, oldest first.
    public internal(set) var messages: [Message]
    /// True when older messages can be paged in.
    public internal(set) var hasOlder: Bool

    /// Creates a timeline.
    public init(messages: [Message] = [], hasOlder: Bool = false) {
        self.messages = messages
        self.hasOlder = hasOlder
    }

    /// Adds a message, or replaces the one with the same id (a pending send that was stored).
    mutating func upsert(_ message: Message) {
        if let index = messages.firstIndex(where: { $0.id == message.id }) {
            messages[index] = message
        } else {
            messages.append(message)
        }
    }

    /// The oldest message the backend has stored: the cursor for paging back.
    var oldestStored: Message? { messages.first { $0.state == .sent } }
}
