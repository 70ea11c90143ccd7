import Chat
import Foundation
import Kernel

/// What one caller's chat service does the same way on every store: membership checks, sends
/// checked, paid for and handed to the process's writer, and live streams from its feed.
/// `StoredChatService` adds the reads of its store.
struct CallerChat: Sendable {
    let writer: MessageWriter
    let membership: any ConversationMembership
    let mentions: MentionFinder
    let feed: any EventFeed
    let caller: Caller
    let clock: any WallClock
    let budget: UsageBudget
    let epoch: String

    /// The caller, once checked to be a member of `conversationID`.
    @discardableResult
    func authorize(_ conversationID: ConversationID) async throws -> UserID {
        let me = try await caller.id()
        try await membership.requireMember(me, of: conversationID)
        return me
    }

    /// The caller as a reader of `conversationID`, once checked to be a member: its members, and
    /// the people apart from the caller (`ChatRules.apart`), whom no read receipt reaches or comes from.
    func reader(of conversationID: ConversationID) async throws -> (me: UserID, members: [UserID], apart: Set<UserID>) {
        let me = try await caller.id()
        let members = try await membership.requireMember(me, of: conversationID)
        return (me, members, try await membership.people(apartFrom: me))
    }

    nonisolated(nonsending) func send(id: MessageID, text: String, to conversationID: ConversationID, replyTo: MessageID?) async throws -> Message {
        let me = try await caller.id()
        let members = try await membership.requireMember(me, of: conversationID)
        return try await writer.store(try await checked(text, to: conversationID, id: id, replyTo: replyTo, from: me, members: members))
    }

    /// Edits a message of the caller's: checked as a send of the new text is, and paid for as a
    /// change (`changing`).
    func edit(_ messageID: MessageID, in conversationID: ConversationID, text: String) async throws -> Message {
        let me = try await caller.id()
        let members = try await membership.requireMember(me, of: conversationID)
        let text = try Validation.messageText(text)
        try budget.spend(.message, by: me)
        let now = storedNow()
        return try await writer.change(
            messageID, in: conversationID, as: .edited,
            changing(.edited, by: me, members: members) {
                try ChatRules.edit($0, to: text, by: me, at: now)
            })
    }

    /// Deletes a message of the caller's, also once she has left its conversation
    /// (`ChatRules.deletion`), paid for as a change (`changing`).
    func delete(_ messageID: MessageID, in conversationID: ConversationID) async throws -> Message {
        let me = try await caller.id()
        let (members, isMember) = try await membership.membership(of: me, in: conversationID)
        try budget.spend(.message, by: me)
        let now = storedNow()
        return try await ChatRules.deletion(in: conversationID, member: isMember) {
            try await writer.change(
                messageID, in: conversationID, as: .deleted,
                changing(.deleted, by: me, members: members) {
                    try ChatRules.delete($0, by: me, member: isMember, at: now)
                })
        }
    }

    /// Adds or removes a reaction of the caller's, paid for as a change (`changing`).
    func react(to messageID: MessageID, in conversationID: ConversationID, with emoji: String, adding: Bool) async throws -> Message {
        let me = try await caller.id()
        let members = try await membership.requireMember(me, of: conversationID)
        let emoji = try Validation.reaction(emoji)
        try budget.spend(.message, by: me)
        return try await writer.change(
            messageID, in: conversationID, as: .reacted,
            changing(.reacted, by: me, members: members) {
                try ChatRules.react($0, with: emoji, by: me, adding: adding)
            })
    }

    /// `rule`, a `kind` change of a message, paid for (beside the one message spent before) by the
    /// bytes of the event it makes (of the message as it is after it) times the `members` it goes
    /// to (`ChatRules.fanOutCost`): refused, the change is not stored.
    private func changing(_ kind: UserEvent.MessageChange, by me: UserID, members: [UserID], _ rule: @escaping @Sendable (Message) throws -> Message?)
        -> @Sendable (Message) throws -> Message?
    {
        { [budget] message in
            guard let changed = try rule(message) else { return nil }
            try budget.spend(.fanOutBytes, by: me, cost: ChatRules.fanOutCost(of: kind, to: changed, members: members))
            return changed
        }
    }

    /// Checks each draft as `send(id:text:to:)` does, then hands those that pass to the writer
    /// together, so that they are stored in the order given, in as few transactions as the
    /// writer's load allows.
    func send(_ drafts: [Message.Draft]) async -> [Result<Message, any Error>] {
        let me: UserID
        do { me = try await caller.id() } catch { return drafts.map { _ in .failure(error) } }
        var audiences: [ConversationID: Result<[UserID], any Error>] = [:]
        var checked: [Result<MessageWriter.Send, any Error>] = []
        for draft in drafts {
            if audiences[draft.conversationID] == nil {
                do {
                    audiences[draft.conversationID] = .success(try await membership.requireMember(me, of: draft.conversationID))
                } catch {
                    audiences[draft.conversationID] = .failure(error)
                }
            }
            do {
                checked.append(
                    .success(
                        try await self.checked(
                            draft.text, to: draft.conversationID, id: draft.id, replyTo: draft.replyTo, from: me,
                            members: audiences[draft.conversationID]?.get() ?? [])))
            } catch {
                checked.append(.failure(error))
            }
        }
        var stored = await writer.store(checked.compactMap { try? $0.get() }).makeIterator()
        return checked.map { check in
            check.flatMap { _ in stored.next() ?? .failure(AppError(.internal, "the writer answered fewer sends than it was given")) }
        }
    }

    /// A send of `text` by a member, checked and paid for (one message and its fan-out, the bytes
    /// of its text and of the quote it carries if it is a reply, times the others it goes to, from
    /// the sender's budget), with whom it mentions.
    private nonisolated(nonsending) func checked(
        _ text: String, to conversationID: ConversationID, id: MessageID, replyTo: MessageID?, from me: UserID,
        members: [UserID]
    ) async throws -> MessageWriter.Send {
        let text = try Validation.messageText(text)
        try spend(on: text.utf8.count + (replyTo == nil ? 0 : Message.Reply.quoteBytes), by: me, members: members)
        return MessageWriter.Send(
            id: id, text: text, conversationID: conversationID, sender: me, sentAt: MessageRows.milliseconds(clock.now()),
            members: members, replyTo: replyTo, mentions: try await mentions.mentions(in: text, by: me, members: members))
    }

    /// The time now as the store keeps it (whole milliseconds), so that a change returned equals
    /// the message read back.
    private func storedNow() -> Date { MessageRows.date(milliseconds: MessageRows.milliseconds(clock.now())) }

    /// One message and its fan-out (`ChatRules.fanOutCost` of `bytes`) from `me`'s budget.
    private func spend(on bytes: Int, by me: UserID, members: [UserID]) throws {
        try budget.spend(.fanOutBytes, by: me, cost: ChatRules.fanOutCost(of: bytes, members: members))
        try budget.spend(.message, by: me)
    }

    func liveMessages(in conversationID: ConversationID?) async throws -> AsyncStream<Message> {
        let me = try await caller.id()
        if let conversationID { try await membership.requireMember(me, of: conversationID) }
        return caller.guarding(try await feed.subscribe(conversation: conversationID, member: me).compactMapped(\.message))
    }

    func liveEvents() async throws -> AsyncStream<UserEvent> {
        caller.guarding(try await feed.subscribe(conversation: nil, member: try await caller.id()))
    }

    /// A catch-up read for the caller: what `read` returns, cut to a page (`ChatRules.catchUpPage`)
    /// and paid for (`paying`).
    nonisolated(nonsending) func catchUp<Item: WireWeighed>(_ read: () async throws -> [Item]) async throws -> [Item] {
        try await paying(\.self) { ChatRules.catchUpPage(try await read()) }
    }

    /// A page of history for the caller: what `read` returns, cut to `ChatRules.pageBytes`
    /// (`ChatRules.historyPage`) and paid for (`paying`).
    nonisolated(nonsending) func history(_ read: () async throws -> MessagePage) async throws -> MessagePage {
        try await paying(\.messages) { ChatRules.historyPage(try await read()) }
    }

    /// `read`, paid for from the caller's look-up budget (`ChatRules.readCost`): one unit before
    /// it runs, so that a reader past the budget is refused before anything is read, the rest by
    /// the `items` it returns.
    private nonisolated(nonsending) func paying<Read, Item: WireWeighed>(_ items: (Read) -> [Item], _ read: () async throws -> Read) async throws
        -> Read
    {
        let me = try await caller.id()
        try budget.spend(.lookup, by: me)
        let result = try await read()
        let rest = ChatRules.readCost(of: items(result)) - 1
        if rest > 0 { try budget.spend(.lookup, by: me, cost: rest) }
        return result
    }

    /// Refuses a cursor of another store, or past `newest`, this store's last position: a copy
    /// restored from elsewhere.
    func check(_ cursor: EventCursor, newest: () async throws -> Int64) async throws {
        guard cursor.epoch == epoch, cursor.position <= (try await newest()) else { throw ChatRules.foreignCursor(cursor) }
    }
}
