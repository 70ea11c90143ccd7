import Chat
import Kernel

/// A page of history.
public struct MessagePageReply: WireType, Equatable {
    /// The page, oldest first.
    public let messages: [Message]
    /// Whether older messages exist.
    public let hasOlder: Bool

    /// The reply for `page`.
    public init(_ page: MessagePage) {
        messages = page.messages
        hasOlder = page.hasOlder
    }

    /// The page it carries.
    public var page: MessagePage { MessagePage(messages: messages, hasOlder: hasOlder) }

    public static let schema = WireSchema.object([("messages", .array(Message.schema, maxItems: ChatAPI.maxPage)), ("hasOlder", .boolean)],
                                                 required: ["messages", "hasOlder"])
}
