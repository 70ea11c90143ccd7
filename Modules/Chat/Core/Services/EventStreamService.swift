import Kernel

/// The signed-in user's events, live and caught up: new messages, changes of messages and the
/// changes that concern them (`UserEvent`), and where a reader stands (`EventCursor`).
/// Implementations: `InMemoryEventStreamService`, `StoredEventStreamService` (over SQLite's or
/// PostgreSQL's `ChatHistoryStore` and the process's feed), `RemoteEventStreamService` (the
/// server's events socket). Only a conversation's members see its events.
public protocol EventStreamService: Sendable {
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

extension EventStreamService {
    public func liveTrouble() async throws -> AsyncStream<String?> { AsyncStream { $0.finish() } }
}
