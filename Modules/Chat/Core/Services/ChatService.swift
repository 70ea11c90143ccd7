import Kernel

/// Reading and sending messages. Implementations: `InMemoryChatService`, `StoredChatService`
/// (over SQLite's or PostgreSQL's `ChatHistoryStore`), `RemoteChatService`. Only members of a
/// conversation may read or post in it (`.forbidden`). Who is typing is `TypingService`'s.
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
    /// when there is none) and carries its quote (`Message.Reply`).
    nonisolated(nonsending) func send(id: MessageID, text: String, to conversationID: ConversationID, replyTo: MessageID?) async throws -> Message

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

    /// New messages as they are stored, in one conversation or (with `nil`) in every conversation
    /// the signed-in user is a member of. `liveMessages(in:after:)` resumes after a cursor.
    func liveMessages(in conversationID: ConversationID?) async throws -> AsyncStream<Message>

    /// Stored messages after `cursor`, oldest first, at most `limit`: in one conversation or
    /// (with `nil`) in every conversation the signed-in user is a member of. What a live reader
    /// missed while it was away.
    /// - Throws: `.gone` when the cursor is of another store (`ChatRules.foreignCursor`).
    func messages(after cursor: EventCursor, in conversationID: ConversationID?, limit: Int) async throws -> [Message]

    /// Every event the signed-in user may see (`UserEvent`: messages of their conversations and
    /// the changes that concern them) stored after `cursor`, oldest first, at most `limit`.
    /// - Throws: `.gone` when the cursor is of another store (`ChatRules.foreignCursor`).
    func events(after cursor: EventCursor, limit: Int) async throws -> [UserEvent]

    /// The same events as they are stored, from now on. `liveEvents(after:)` resumes after a cursor.
    func liveEvents() async throws -> AsyncStream<UserEvent>

    /// The cursor of the newest event the signed-in user may see (`nil` for none): where a
    /// reader that has seen everything stands, so that it can resume from there.
    func newestCursor() async throws -> EventCursor?

    /// Why live streams keep failing, each time it is said: a reason (and when they try again),
    /// then `nil` once they deliver again. Only a remote service has any (its events socket); the
    /// default never says anything.
    func liveTrouble() async throws -> AsyncStream<String?>
}

extension ChatService {
    /// Sends a message that answers none.
    public nonisolated(nonsending) func send(id: MessageID, text: String, to conversationID: ConversationID) async throws -> Message {
        try await send(id: id, text: text, to: conversationID, replyTo: nil)
    }

    public func send(_ drafts: [Message.Draft]) async -> [Result<Message, any Error>] {
        var outcomes: [Result<Message, any Error>] = []
        for draft in drafts {
            do {
                outcomes.append(.success(try await send(id: draft.id, text: draft.text, to: draft.conversationID, replyTo: draft.replyTo)))
            } catch {
                outcomes.append(.failure(error))
            }
        }
        return outcomes
    }

    public func liveTrouble() async throws -> AsyncStream<String?> { AsyncStream { $0.finish() } }
}
