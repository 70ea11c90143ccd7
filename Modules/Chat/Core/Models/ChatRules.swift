import Foundation
import Kernel

/// Chat's rules and errors, written once for every implementation of `ChatService`.
public enum ChatRules {
    /// What a resend of `id` gets: the stored message when it is the same one (same
    /// conversation, sender, text and files), else a conflict.
    public static func resent(
        _ existing: Message, conversationID: ConversationID, sender: UserID, text: String, attachments: [Attachment] = []
    ) throws -> Message {
        guard existing.conversationID == conversationID, existing.senderID == sender, existing.text == text,
            existing.attachments.map(\.id) == attachments.map(\.id)
        else {
            throw AppError(.conflict, "message id \(existing.id) is already used by another message")
        }
        return existing
    }

    /// The text a send keeps (`Validation.messageText`); one that carries files may have none
    /// (a file sent without a caption).
    public static func text(_ raw: String, carrying attachments: [FileID]) throws -> String {
        if !attachments.isEmpty, raw.allSatisfy({ $0.isWhitespace }) { return "" }
        return try Validation.messageText(raw)
    }

    /// The files a send of `requested` carries, from those its sender uploaded for the message
    /// (`AttachmentSource.uploads`): all of them, in their order, and no other.
    /// - Throws: `.invalidInput` when `requested` names a file not uploaded for this message, or
    ///   leaves one out.
    public static func attachments(_ requested: [FileID], uploaded: [Attachment]) throws -> [Attachment] {
        guard requested == uploaded.map(\.id) else {
            let missing = requested.first { id in !uploaded.contains { $0.id == id } }
            throw AppError(
                .invalidInput,
                missing.map { "file \(AppError.quoting($0.rawValue)) was not uploaded for this message" }
                    ?? "a message carries every file uploaded for it, in their order")
        }
        return uploaded
    }

    /// A cursor this store did not give out (another database, or one replaced since): the
    /// reader starts over instead of guessing where it was.
    public static func foreignCursor(_ cursor: EventCursor) -> AppError {
        AppError(.gone, "cursor \(cursor) is from another store; start again without it and reload")
    }

    /// Most messages a catch-up read returns at once.
    public static let catchUpLimit = 500
    /// Most bytes (`WireWeighed.wireBytes`) a catch-up read or a page of history holds, past the
    /// item that reaches them: a page of the largest messages is a few dozen of them, not 500.
    public static let pageBytes = 1_024 * 1_024
    /// Bytes a read returns per unit of the reader's look-up budget: each read spends one, and one
    /// more for each of these it returns (so a full page of the largest messages spends 5).
    public static let readBytesPerLookup = 256 * 1_024

    /// The start of `items` (oldest first) a catch-up read returns: at most `catchUpLimit`, and
    /// none after the one that brings their bytes to `pageBytes`.
    public static func catchUpPage<Item: WireWeighed>(_ items: some Sequence<Item>) -> [Item] {
        var page: [Item] = []
        var bytes = 0
        for item in items where page.count < catchUpLimit && bytes < pageBytes {
            page.append(item)
            bytes += item.wireBytes
        }
        return page
    }

    /// Whether a reader of `page` (a catch-up read's) reads on after its last item: the page
    /// stopped at `catchUpLimit` or `pageBytes`, not at the end of what was stored.
    public static func isFull(_ page: [some WireWeighed]) -> Bool {
        page.count >= catchUpLimit || page.reduce(0) { $0 + $1.wireBytes } >= pageBytes
    }

    /// `page` of history with no more of its newest messages than `pageBytes` allows (the one
    /// that reaches them included); the older ones left out count as older.
    public static func historyPage(_ page: MessagePage) -> MessagePage {
        let kept = catchUpPage(page.messages.reversed())
        return kept.count == page.messages.count ? page : MessagePage(messages: kept.reversed(), hasOlder: true)
    }

    /// What a read returning `items` spends of the reader's look-up budget: one, and one per
    /// `readBytesPerLookup` of what it returns.
    public static func readCost(of items: [some WireWeighed]) -> Int {
        1 + items.reduce(0) { $0 + $1.wireBytes } / readBytesPerLookup
    }

    /// What a `kind` change that leaves `message` as it is costs its author's fan-out budget: the
    /// bytes of its event (`UserEvent.changed`: the message, or a reaction's reactions alone) times
    /// the members it goes to besides the author.
    public static func fanOutCost(of kind: UserEvent.MessageChange, to message: Message, members: [UserID]) -> Int {
        fanOutCost(of: kind.carriesMessage ? message.wireBytes : MessageReactions(of: message).wireBytes, members: members)
    }

    /// What sending `bytes` to a conversation's `members` costs the sender's fan-out budget:
    /// the bytes times the members they go to besides the sender (at least one).
    public static func fanOutCost(of bytes: Int, members: [UserID]) -> Int {
        bytes * max(1, members.count - 1)
    }

    /// The caller is not a member of the conversation.
    public static func notMember(_ conversationID: ConversationID) -> AppError {
        AppError(.forbidden, "you are not a member of conversation \(conversationID)")
    }

    /// Whether a reader with `grant` is handed `event`: a person every event of theirs, a bot's
    /// token those of the conversations it may read, and nothing that concerns no conversation.
    public static func shows(_ event: UserEvent, under grant: Grant) -> Bool {
        guard case .bot = grant else { return true }
        return event.conversationID.map { grant.allows(.read, in: $0) } ?? false
    }

    /// The events after `cursor` a reader with `grant` is handed, at most `limit`: pages of
    /// `read` (every event of the reader's, each page at most `limit`) passed through `shows`, read
    /// on past what a bot may not see until `limit` pass or the store's end, so that a short answer
    /// still means the end (`isFull`), for a bot's token as for a person.
    public static func visibleEvents(
        under grant: Grant, after cursor: EventCursor, limit: Int, read: (EventCursor) async throws -> [UserEvent]
    ) async throws -> [UserEvent] {
        guard case .bot = grant else { return try await read(cursor) }
        var (shown, after) = ([UserEvent](), cursor)
        while true {
            let page = try await read(after)
            shown += page.filter { shows($0, under: grant) }
            let atEnd = page.count < limit && !isFull(page)
            guard !atEnd, shown.count < limit, !isFull(shown), let last = page.last?.cursor else { return catchUpPage(shown.prefix(limit)) }
            after = last
        }
    }

    /// A bot in a conversation its owner has left: it acts there no more.
    public static func ownerAway(_ conversationID: ConversationID) -> AppError {
        AppError(.forbidden, "this bot's owner is not a member of conversation \(conversationID)")
    }

    /// A paging cursor names no message of the conversation.
    public static func noMessage(_ id: MessageID, in conversationID: ConversationID) -> AppError {
        AppError(.notFound, "no message \(AppError.quoting(id.rawValue)) in conversation \(AppError.quoting(conversationID.rawValue))")
    }

    /// How long after sending its author may edit a message.
    public static let editWindow: TimeInterval = 24 * 60 * 60
    /// How many times a message may be edited.
    public static let maxEdits = 10

    /// Whether `editor` may give `message` the text `text` at `now`: `nil` when it already has
    /// that text (a retried edit: nothing to store), else the edited message.
    /// - Throws: `.forbidden` for anyone but its author; `.conflict` for a deleted message, one
    ///   sent more than `editWindow` ago, or one edited `maxEdits` times.
    public static func edit(_ message: Message, to text: String, by editor: UserID, at now: Date) throws -> Message? {
        guard message.senderID == editor else { throw AppError(.forbidden, "only its author can edit a message") }
        guard !message.deleted else { throw AppError(.conflict, "message \(AppError.quoting(message.id.rawValue)) was deleted") }
        if message.text == text { return nil }
        guard now.timeIntervalSince(message.sentAt) <= editWindow else {
            throw AppError(.conflict, "a message can be edited for 24 hours after it was sent")
        }
        guard message.version < maxEdits else { throw AppError(.conflict, "a message can be edited at most \(maxEdits) times") }
        return message.editing(to: text, at: now)
    }

    /// Whether `deleter` may delete `message` at `now`: its author may, also once she is no longer
    /// in its conversation (`member` false: she left it, or blocked the other of a one-to-one);
    /// `nil` when it is already deleted (a retried delete), else its tombstone.
    /// - Throws: `.forbidden` for anyone but its author: to one outside the conversation
    ///   `notMember`, which says nothing of its messages.
    public static func delete(_ message: Message, by deleter: UserID, member: Bool, at now: Date) throws -> Message? {
        guard message.senderID == deleter else {
            throw member ? AppError(.forbidden, "only its author can delete a message") : notMember(message.conversationID)
        }
        return message.deleted ? nil : message.deleting(at: now)
    }

    /// `message` erased, whoever sent it: an account deleted, or past a server's retention
    /// (`ErasedMessages`). Its tombstone, as its author's deletion leaves; `nil` when it is
    /// already deleted.
    public static func erase(_ message: Message, at now: Date) -> Message? {
        message.deleted ? nil : message.deleting(at: now)
    }

    /// A deletion by the caller, `member` of the conversation or not, made by `change` (the
    /// store's change applying `delete(_:by:member:at:)`). To one outside the conversation a
    /// message that is not there is refused as `notMember`, and the answer is her tombstone
    /// without the message it answered: nothing of the conversation reaches her but her own message.
    public nonisolated(nonsending) static func deletion(
        in conversationID: ConversationID, member: Bool,
        _ change: () async throws -> Message
    ) async throws -> Message {
        guard !member else { return try await change() }
        do {
            return try await change().replying(to: nil)
        } catch let error as AppError where error.kind == .notFound {
            throw notMember(conversationID)
        }
    }

    /// Most different emoji on one message.
    public static let maxReactionKinds = 20
    /// Most emoji one person may put on one message.
    public static let maxReactionsPerPerson = 10

    /// `message` with `person`'s reaction `emoji` added (or, with `adding` false, removed): `nil`
    /// when that changes nothing (a reaction added twice counts once).
    /// - Throws: `.conflict` for a deleted message, or past `maxReactionKinds` or `maxReactionsPerPerson`.
    public static func react(_ message: Message, with emoji: String, by person: UserID, adding: Bool) throws -> Message? {
        guard !message.deleted else { throw AppError(.conflict, "message \(AppError.quoting(message.id.rawValue)) was deleted") }
        var reactions = message.reactions
        if adding {
            if reactions[emoji]?.contains(person) == true { return nil }
            guard reactions[emoji] != nil || reactions.count < maxReactionKinds else {
                throw AppError(.conflict, "a message can have at most \(maxReactionKinds) different reactions")
            }
            guard reactions.values.count(where: { $0.contains(person) }) < maxReactionsPerPerson else {
                throw AppError(.conflict, "you can put at most \(maxReactionsPerPerson) reactions on one message")
            }
            reactions[emoji, default: []].append(person)
        } else {
            guard let people = reactions[emoji], people.contains(person) else { return nil }
            let others = people.filter { $0 != person }
            reactions[emoji] = others.isEmpty ? nil : others
        }
        return message.reacting(reactions)
    }

    /// Who sees that `reader`'s marker moved: the reader, and (unless they keep their receipts
    /// private) every other member who does not keep theirs private (receipts are both ways) and
    /// is not `apart` from the reader (one of them blocked the other).
    public static func receiptAudience(of reader: UserID, members: [UserID], keepingPrivate: Set<UserID>, apart: Set<UserID>) -> [UserID] {
        guard !keepingPrivate.contains(reader) else { return [reader] }
        return [reader] + members.filter { $0 != reader && !keepingPrivate.contains($0) && !apart.contains($0) }
    }

    /// The receipts `reader` sees of `receipts` (every member's, as a store read them): none when
    /// they keep their own private, else those of the other members who share theirs and are
    /// not `apart` from them (receipts are both ways, as `receiptAudience` sends them).
    public static func receiptsShown(_ receipts: [ReadReceipt], to reader: UserID, keepingPrivate: Set<UserID>, apart: Set<UserID>)
        -> [ReadReceipt]
    {
        guard !keepingPrivate.contains(reader) else { return [] }
        return receipts.filter { $0.userID != reader && !keepingPrivate.contains($0.userID) && !apart.contains($0.userID) }
    }

    /// The people `user` and whom one blocked the other: no read receipts, reactions or typing pass between them.
    public static func apart(_ blocks: (blocked: Set<UserID>, blockers: Set<UserID>)) -> Set<UserID> { blocks.blocked.union(blocks.blockers) }

    /// How often a screen sends its person's typing notice again while keys keep coming.
    public static let typingRefresh: Duration = .milliseconds(2_500)
    /// The least time between two typing notices of one person in one conversation that a
    /// process lets through: a little under `typingRefresh`, so that timing jitter never drops a refresh.
    public static let typingGap: Duration = .seconds(2)
    /// How long a typing notice lasts without a fresh one: then its typist shows as stopped (a
    /// typist whose process died, within 6 s of its last notice).
    public static let typingExpiry: Duration = .seconds(5)
}

/// What a page is bounded by: about the bytes an item takes on the wire (`ChatRules.pageBytes`).
public protocol WireWeighed {
    /// About how many bytes it takes on the wire.
    var wireBytes: Int { get }
}

extension Message: WireWeighed {}
extension UserEvent: WireWeighed {}

extension ErasedMessages {
    /// The messages a server that keeps them `days` days deletes at `now`: those sent before
    /// then; `nil` for 0, which keeps them for ever.
    public static func pastRetention(days: Int, at now: Date) -> ErasedMessages? {
        days > 0 ? .sentBefore(now - TimeInterval(days) * 86_400) : nil
    }
}

/// Which messages an erasure deletes for everyone, whoever their conversation: a deleted
/// account's, or those older than a server keeps them.
public enum ErasedMessages: Sendable, Equatable {
    /// Every message `UserID` sent.
    case sentBy(UserID)
    /// Every message sent before this time.
    case sentBefore(Date)
}
