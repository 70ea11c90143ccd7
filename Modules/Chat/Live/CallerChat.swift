import Chat
import Foundation
import Kernel

/// What one caller's chat service does the same way on every store when it writes: sends and
/// changes checked, paid for and handed to the process's writer. `StoredChatService` adds the
/// reads of its store (`CallerReads`).
struct CallerChat: Sendable {
    let writer: MessageWriter
    let membership: any ConversationMembership
    let mentions: MentionFinder
    let caller: Caller
    let clock: any WallClock
    let budget: UsageBudget
    let attachments: AttachedFiles

    nonisolated(nonsending) func send(
        id: MessageID, text: String, to conversationID: ConversationID, replyTo: MessageID?, attachments: [FileID]
    ) async throws -> Message {
        let (me, members) = try await membership.require(caller, to: .send, in: conversationID)
        return try await writer.store(
            try await checked(text, to: conversationID, id: id, replyTo: replyTo, attachments: attachments, from: me, members: members))
    }

    /// Edits a message of the caller's: checked as a send of the new text is, and paid for as a
    /// change (`changing`).
    func edit(_ messageID: MessageID, in conversationID: ConversationID, text: String) async throws -> Message {
        let (me, members) = try await membership.require(caller, to: .send, in: conversationID)
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
        let (me, _) = try await caller.id(to: .send, in: conversationID)
        let (members, isMember) = try await membership.membership(of: me, in: conversationID)
        try budget.spend(.message, by: me)
        let now = storedNow()
        return try await attachments.discarding { carried in
            try await ChatRules.deletion(in: conversationID, member: isMember) {
                try await writer.change(
                    messageID, in: conversationID, as: .deleted,
                    changing(.deleted, by: me, members: members) {
                        try carried(ChatRules.delete($0, by: me, member: isMember, at: now), $0)
                    })
            }
        }
    }

    /// Adds or removes a reaction of the caller's, paid for as a change (`changing`).
    func react(to messageID: MessageID, in conversationID: ConversationID, with emoji: String, adding: Bool) async throws -> Message {
        let (me, members) = try await membership.require(caller, to: .send, in: conversationID, alsoReading: true)
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
        do { me = try await caller.principal().id } catch { return drafts.map { _ in .failure(error) } }
        var audiences: [ConversationID: Result<[UserID], any Error>] = [:]
        var checked: [Result<MessageWriter.Send, any Error>] = []
        for draft in drafts {
            if audiences[draft.conversationID] == nil {
                do {
                    audiences[draft.conversationID] = .success(try await membership.require(caller, to: .send, in: draft.conversationID).members)
                } catch {
                    audiences[draft.conversationID] = .failure(error)
                }
            }
            do {
                checked.append(
                    .success(
                        try await self.checked(
                            draft.text, to: draft.conversationID, id: draft.id, replyTo: draft.replyTo, attachments: draft.attachments, from: me,
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
    /// of its text, of the quote it carries if it is a reply and of what it says of its files,
    /// times the others it goes to, from the sender's budget), with whom it mentions and the
    /// files it carries.
    private nonisolated(nonsending) func checked(
        _ text: String, to conversationID: ConversationID, id: MessageID, replyTo: MessageID?, attachments requested: [FileID], from me: UserID,
        members: [UserID]
    ) async throws -> MessageWriter.Send {
        // A reply quotes what it answers: a token that only sends may not.
        if replyTo != nil { _ = try await caller.id(to: .read, in: conversationID) }
        let text = try ChatRules.text(text, carrying: requested)
        let files = try await attachments.uploaded(requested, for: id, in: conversationID, by: me)
        let bytes = text.utf8.count + (replyTo == nil ? 0 : Message.Reply.quoteBytes) + files.reduce(0) { $0 + $1.wireBytes }
        try spend(on: bytes, by: me, members: members)
        return MessageWriter.Send(
            id: id, text: text, conversationID: conversationID, sender: me, sentAt: MessageRows.milliseconds(clock.now()),
            members: members, replyTo: replyTo, mentions: try await mentions.mentions(in: text, by: me, members: members), attachments: files)
    }

    /// The time now as the store keeps it (whole milliseconds), so that a change returned equals
    /// the message read back.
    private func storedNow() -> Date { MessageRows.date(milliseconds: MessageRows.milliseconds(clock.now())) }

    /// One message and its fan-out (`ChatRules.fanOutCost` of `bytes`) from `me`'s budget.
    private func spend(on bytes: Int, by me: UserID, members: [UserID]) throws {
        try budget.spend(.fanOutBytes, by: me, cost: ChatRules.fanOutCost(of: bytes, members: members))
        try budget.spend(.message, by: me)
    }
}
