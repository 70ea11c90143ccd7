import Chat
import Kernel

/// What a chat service reads of a store (history, catch-up, receipts) and the read markers and
/// receipt privacy it writes, as `StoredChatService` uses them: facts only. Who may read, whose
/// receipts a reader sees, who hears of a read, what a page weighs and costs: the service
/// decides (`ChatRules`, `CallerChat`). SQLite and PostgreSQL implement it; sends and changes go
/// through the process's `MessageWriter` and its `MessageStore`.
public protocol ChatHistoryStore: Sendable {
    /// The store's epoch (`EventCursor.epoch`; `ChatSchema.epoch`, `PostgresChatSchema.epoch`).
    var epoch: String { get }

    /// The newest `limit` messages of `conversationID` below `position` (a place in the
    /// conversation), oldest first, and whether older ones are left.
    func page(of conversationID: ConversationID, below position: Int64, limit: Int) async throws -> MessagePage

    /// The place of `messageID` in `conversationID`, or `nil` when it has no such message.
    func position(of messageID: MessageID, in conversationID: ConversationID) async throws -> Int64?

    /// The message `messageID` of `conversationID` as it is now, or `nil` when there is none: what
    /// Files asks to know whether a message carries a file.
    func message(_ messageID: MessageID, in conversationID: ConversationID) async throws -> Message?

    /// Moves `reader`'s read marker in `conversationID` to its last message when it is behind,
    /// with the event that says so, whose audience `audience` gives from the members who keep
    /// their receipts private: all in one transaction. Nothing when the marker is there already.
    func markRead(
        _ conversationID: ConversationID, by reader: UserID, members: [UserID],
        audience: @escaping @Sendable (_ keepingPrivate: Set<UserID>) -> [UserID]
    ) async throws

    /// Those of `members` who keep their read receipts private.
    func keepingReceiptsPrivate(among members: [UserID]) async throws -> Set<UserID>

    /// How far each member of `conversationID` has read, by user id; whose a reader sees,
    /// `ChatRules.receiptsShown` decides.
    func receipts(in conversationID: ConversationID) async throws -> [ReadReceipt]

    /// Keeps `user`'s read receipts private, or shares them again.
    func setReceiptsPrivate(_ isPrivate: Bool, for user: UserID) async throws

    /// The store's last position, which a cursor may not pass.
    func newestPosition() async throws -> Int64

    /// The events `reader` may read after `position`, oldest first, at most `limit`, none past
    /// `top` where positions may become visible out of order (PostgreSQL's; SQLite's one writer
    /// numbers in commit order, so it may read on past `top`).
    func events(after position: Int64, upTo top: Int64, for reader: UserID, limit: Int) async throws -> [UserEvent]

    /// The messages after `position` (up to `top`, as `events` reads), oldest first, at most
    /// `limit`: of `conversationID`, or of every conversation `reader` is a member of.
    func messages(after position: Int64, upTo top: Int64, in conversationID: ConversationID?, of reader: UserID, limit: Int) async throws
        -> [Message]

    /// The last position of an event `reader` may read, or `nil` when there is none.
    func newestPosition(for reader: UserID) async throws -> Int64?

    /// At most `limit` of the messages `which` names that are not deleted, whatever their
    /// conversation, in the store's order after `place` (0: from the first): what an erasure
    /// (`MessageErasure`) deletes, a page at a time, reading the store once in all.
    func undeleted(_ which: ErasedMessages, after place: Int64, limit: Int) async throws -> [ErasedMessage]
}
