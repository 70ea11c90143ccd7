/// A page of a conversation's history, oldest first.
public struct MessagePage: Equatable, Sendable {
    /// The messages, oldest first.
    public let messages: [Message]
    /// True when older messages exist before the first one.
    public let hasOlder: Bool

    /// Creates a page.
    public init(messages: [Message], hasOlder: Bool) {
        self.messages = messages
        self.hasOlder = hasOlder
    }
}
