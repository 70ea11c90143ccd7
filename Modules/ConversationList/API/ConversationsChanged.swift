import Kernel

/// Event: something in the reader's conversation list may have changed; the client reloads it.
public struct ConversationsChanged: WireEvent, Equatable {
    public static let type = "conversations.changed"

    /// The event.
    public init() {}

    public static let schema = WireSchema.object([], required: [])
}
