import Foundation
import Kernel

/// Whether a message that has just arrived tells its reader, and why: decided once, for every
/// front end that stays open (the REPL, the full-screen UI, `messageai notify`).
public enum NotificationRules {
    /// Why a reader is told.
    public enum Reason: String, Sendable, Codable {
        /// A message in a one-to-one conversation.
        case direct
        /// A message that mentions the reader.
        case mention
        /// Any other message of a conversation at `all`.
        case message
    }

    /// A message older than this when it arrives was missed while the stream was away and is
    /// caught up, not news: nobody is told of a backlog.
    public static let backlogAge: TimeInterval = 120

    /// Why `reader` is told of `message`, which arrived live at `now` in a conversation at
    /// `level` (`isDirect`: one-to-one), while the reader looks at `open` and is apart from
    /// `apart` (people they blocked); `nil` when they are not told. Never of their own
    /// messages, of the conversation they look at, of a caught-up backlog, of a deleted message
    /// or of someone apart from them.
    public static func reason(
        for message: Message, reader: UserID, isDirect: Bool, level: NotificationLevel, open: ConversationID?, apart: Set<UserID>,
        now: Date
    ) -> Reason? {
        guard message.senderID != reader, message.conversationID != open, !message.deleted, !apart.contains(message.senderID),
            now.timeIntervalSince(message.sentAt) <= backlogAge
        else { return nil }
        let mentioned = message.mentions.contains(reader)
        switch level {
        case .none: return nil
        case .mentions: return mentioned ? .mention : nil
        case .all: return mentioned ? .mention : isDirect ? .direct : .message
        }
    }
}
