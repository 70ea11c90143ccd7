import Kernel

/// One of the signed-in user's conversations as the front ends list it: the full-screen UI's
/// list pane, the REPL's hotlist and `/next` (those with unread messages).
public struct ListedConversation: Equatable, Sendable {
    /// Its number in the conversation list (from 1).
    public let number: Int
    /// The conversation.
    public let id: ConversationID
    /// Its title as the user sees it (a group's title, or the other person's name).
    public let title: String
    /// How many messages from others the user has not read.
    public let unread: Int
    /// How many of those mention the user.
    public let mentions: Int

    /// Whether its unread messages are quiet (muted, or to mentions only): only a mention puts it
    /// in the hotlist.
    public let quiet: Bool

    /// Whether it belongs in the hotlist: an unread mention, or unread messages that are not quiet.
    public var isHot: Bool { mentions > 0 || unread > 0 && !quiet }

    /// Creates an entry.
    public init(number: Int, id: ConversationID, title: String, unread: Int, mentions: Int = 0, quiet: Bool = false) {
        self.quiet = quiet
        self.number = number
        self.id = id
        self.title = title
        self.unread = unread
        self.mentions = mentions
    }

}
