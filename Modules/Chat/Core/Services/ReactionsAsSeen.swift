import Kernel

/// A caller's chat and event services whose reads give reactions as the caller sees them
/// (`Message.seen(by:apart:)`): how many reacted with each emoji, named only where it is the
/// caller, and nothing of the people the caller is apart from (`ChatRules.apart`: one of them
/// blocked the other), in history, catch-up, the live streams and the message a change returns.
/// So a message weighs the same however many react (ADR 30), a blocked person's reactions never
/// reach who blocked them, not even in a group they share, and the blocker's do not reach them.
/// The blocks are looked up for each read that carries someone else's reactions, so a block
/// counts from the next read on. The composition root puts it in front of each local backend's
/// services; the server's sockets give their frames the same way (`EventFrames.text(of:seenBy:apart:)`).
public struct ReactionsAsSeen: ChatService, EventStreamService {
    private let chat: any ChatService
    private let events: any EventStreamService
    private let membership: any ConversationMembership
    private let caller: Caller

    /// `chat` and `events`, the services of `caller`, with blocks looked up in `membership`.
    public init(_ chat: any ChatService, events: any EventStreamService, membership: any ConversationMembership, caller: Caller) {
        self.chat = chat
        self.events = events
        self.membership = membership
        self.caller = caller
    }

    public func latestMessages(in conversationID: ConversationID, limit: Int) async throws -> MessagePage {
        try await filtered(try await chat.latestMessages(in: conversationID, limit: limit))
    }

    public func messages(in conversationID: ConversationID, before messageID: MessageID, limit: Int) async throws -> MessagePage {
        try await filtered(try await chat.messages(in: conversationID, before: messageID, limit: limit))
    }

    public nonisolated(nonsending) func send(
        id: MessageID, text: String, to conversationID: ConversationID, replyTo: MessageID?, attachments: [FileID]
    ) async throws
        -> Message
    {
        try await chat.send(id: id, text: text, to: conversationID, replyTo: replyTo, attachments: attachments)
    }

    public func send(_ drafts: [Message.Draft]) async -> [Result<Message, any Error>] { await chat.send(drafts) }

    public func edit(_ messageID: MessageID, in conversationID: ConversationID, text: String) async throws -> Message {
        try await filtered([try await chat.edit(messageID, in: conversationID, text: text)])[0]
    }

    public func delete(_ messageID: MessageID, in conversationID: ConversationID) async throws -> Message {
        try await chat.delete(messageID, in: conversationID)
    }

    public func react(to messageID: MessageID, in conversationID: ConversationID, with emoji: String, adding: Bool) async throws -> Message {
        try await filtered([try await chat.react(to: messageID, in: conversationID, with: emoji, adding: adding)])[0]
    }

    public func markRead(_ conversationID: ConversationID) async throws { try await chat.markRead(conversationID) }

    public func receipts(in conversationID: ConversationID) async throws -> [ReadReceipt] { try await chat.receipts(in: conversationID) }

    public func setReceiptsPrivate(_ isPrivate: Bool) async throws { try await chat.setReceiptsPrivate(isPrivate) }

    public func liveMessages(in conversationID: ConversationID?) async throws -> AsyncStream<Message> {
        // New messages have no reactions yet.
        try await events.liveMessages(in: conversationID)
    }

    public func messages(after cursor: EventCursor, in conversationID: ConversationID?, limit: Int) async throws -> [Message] {
        try await filtered(try await events.messages(after: cursor, in: conversationID, limit: limit))
    }

    public func events(after cursor: EventCursor, limit: Int) async throws -> [UserEvent] {
        let found = try await events.events(after: cursor, limit: limit)
        guard let (me, apart) = try await apart(for: found.compactMap(\.reactions)) else { return found }
        return found.map { $0.seen(by: me, apart: apart) }
    }

    public func liveEvents() async throws -> AsyncStream<UserEvent> {
        let (me, grant) = try await caller.principal()
        let membership = membership
        return try await events.liveEvents().transformed { event in
            guard let reactions = event.reactions, reactions.anyReacted(besides: me) else { return event }
            // Blocks that cannot be looked up now hide no one: the others' reactions are still only counted.
            return event.seen(by: me, apart: (try? await membership.people(apartFrom: me, under: grant)) ?? [])
        }
    }

    public func newestCursor() async throws -> EventCursor? { try await events.newestCursor() }

    public func liveTrouble() async throws -> AsyncStream<String?> { try await events.liveTrouble() }

    private func filtered(_ page: MessagePage) async throws -> MessagePage {
        MessagePage(messages: try await filtered(page.messages), hasOlder: page.hasOlder)
    }

    private func filtered(_ messages: [Message]) async throws -> [Message] {
        guard let (me, apart) = try await apart(for: messages.map(MessageReactions.init(of:))) else { return messages }
        return messages.map { $0.seen(by: me, apart: apart) }
    }

    /// The caller and the people the caller is apart from, when `reactions` (of messages) hold
    /// anyone but the caller; `nil` (nothing to count or hide, nothing looked up) otherwise.
    private func apart(for reactions: [MessageReactions]) async throws -> (me: UserID, apart: Set<UserID>)? {
        // What was read was checked where it was read, for a bot's token as for a person.
        let (me, grant) = try await caller.principal()
        guard reactions.contains(where: { $0.anyReacted(besides: me) }) else { return nil }
        return (me, try await membership.people(apartFrom: me, under: grant))
    }
}
