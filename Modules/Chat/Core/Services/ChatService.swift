import Kernel

/// Reading and sending messages. Implementations: `InMemoryChatService`, `StoredChatService`
/// (over SQLite's or PostgreSQL's `ChatHistoryStore`), `RemoteChatService`. Only members of a
/// conversation may read or post in it (`.forbidden`). Who is typing is `TypingService`'s; the
/// live streams and catch-up are `EventStreamService`'s.
public protocol ChatService: Sendable {
    /// The newest `limit` messages of a conversation.
    func latestMessages(in conversationID: ConversationID, limit: Int) async throws -> MessagePage

    /// The `limit` messages just before `messageID`.
    /// - Throws: `.notFound` if `messageID` is not in the conversation.
    func messages(in conversationID: ConversationID, before messageID: MessageID, limit: Int) async throws -> MessagePage

    /// Stores a message and returns it as stored. Idempotent: sending an id that is already stored
    /// returns the stored message and stores nothing.
    /// - Throws: `.invalidInput` for bad text; `.conflict` if the id is taken by a different message.
    /// On the caller's executor: a view model on the main actor sending one message at a time
    /// costs no hops between threads (they were most of a local send's time).
    /// With `replyTo`, the message answers that message of the same conversation (`.notFound`
    /// when there is none) and carries its quote (`Message.Reply`). With `attachments`, it
    /// carries the files the sender uploaded for its id (Files), every one of them, in order
    /// (`ChatRules.attachments`), and its text may be empty.
    nonisolated(nonsending) func send(
        id: MessageID, text: String, to conversationID: ConversationID, replyTo: MessageID?, attachments: [FileID]
    ) async throws -> Message

    /// Sends `drafts` as `send(id:text:to:)` would one after another, and returns each one's
    /// outcome in the same order: messages of one sender are stored in the order given, even
    /// when they are written together. For a client with several sends in flight (an events
    /// socket); a refused draft does not stop the others. The default sends one at a time.
    func send(_ drafts: [Message.Draft]) async -> [Result<Message, any Error>]

    /// Gives the signed-in user's message `messageID` the text `text` as its next version, and
    /// returns it as it is now. Every member sees the change live (`UserEvent.messageChanged`)
    /// and in history. The same text again stores nothing (a retry).
    /// - Throws: `.invalidInput` for bad text; `.notFound` for no such message; the refusals of
    ///   `ChatRules.edit`.
    func edit(_ messageID: MessageID, in conversationID: ConversationID, text: String) async throws -> Message

    /// Deletes the signed-in user's message `messageID` for everyone: its text is gone from the
    /// store and a tombstone remains; returns the tombstone. Deleting it again does nothing. Its
    /// author may do it after leaving the conversation too (`ChatRules.deletion`).
    /// - Throws: `.notFound` for no such message; `.forbidden` for another person's (and, to
    ///   one outside the conversation, for any message not hers).
    func delete(_ messageID: MessageID, in conversationID: ConversationID) async throws -> Message

    /// Adds the signed-in user's reaction `emoji` to message `messageID` (or removes it, with
    /// `adding` false) and returns the message as it is now; every member sees it live
    /// (`chat.reacted`). Adding it twice, or removing one not there, changes nothing.
    /// - Throws: `.invalidInput` for anything but one emoji; `.notFound` for no such message; the
    ///   refusals of `ChatRules.react`.
    func react(to messageID: MessageID, in conversationID: ConversationID, with emoji: String, adding: Bool) async throws -> Message

    /// Marks every message of the conversation as read by the signed-in user. When the marker
    /// moves, they see it (`chat.read`), and so do the other members, unless either side keeps
    /// their receipts private.
    func markRead(_ conversationID: ConversationID) async throws

    /// How far each other member has read the conversation, for those who share their receipts;
    /// none for a caller who keeps theirs private (receipts are both ways).
    func receipts(in conversationID: ConversationID) async throws -> [ReadReceipt]

    /// Keeps the signed-in user's read receipts private (others no longer see how far they read,
    /// and they see no one's), or shares them again.
    func setReceiptsPrivate(_ isPrivate: Bool) async throws
}

extension ChatService {
    /// Sends a message that answers none.
    public nonisolated(nonsending) func send(id: MessageID, text: String, to conversationID: ConversationID) async throws -> Message {
        try await send(id: id, text: text, to: conversationID, replyTo: nil, attachments: [])
    }

    /// Sends a message that carries no file.
    public nonisolated(nonsending) func send(id: MessageID, text: String, to conversationID: ConversationID, replyTo: MessageID?) async throws
        -> Message
    {
        try await send(id: id, text: text, to: conversationID, replyTo: replyTo, attachments: [])
    }

    public func send(_ drafts: [Message.Draft]) async -> [Result<Message, any Error>] {
        var outcomes: [Result<Message, any Error>] = []
        for draft in drafts {
            do {
                outcomes.append(
                    .success(
                        try await send(
                            id: draft.id, text: draft.text, to: draft.conversationID, replyTo: draft.replyTo, attachments: draft.attachments)))
            } catch {
                outcomes.append(.failure(error))
            }
        }
        return outcomes
    }
}
