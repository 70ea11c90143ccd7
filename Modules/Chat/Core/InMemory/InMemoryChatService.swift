import Kernel

/// One caller's view of the memory backend's messages.
public struct InMemoryChatService: ChatService {
    private let store: InMemoryChatStore
    private let caller: Caller

    /// Creates the service for `caller` over the shared store.
    public init(store: InMemoryChatStore, caller: Caller) {
        self.store = store
        self.caller = caller
    }

    public func latestMessages(in conversationID: ConversationID, limit: Int) async throws -> MessagePage {
        try await authorize(.read, in: conversationID)
        return try await store.page(conversationID, before: nil, limit: limit)
    }

    public func messages(in conversationID: ConversationID, before messageID: MessageID, limit: Int) async throws -> MessagePage {
        try await authorize(.read, in: conversationID)
        return try await store.page(conversationID, before: messageID, limit: limit)
    }

    public nonisolated(nonsending) func send(
        id: MessageID, text: String, to conversationID: ConversationID, replyTo: MessageID?, attachments: [FileID]
    ) async throws
        -> Message
    {
        let (me, members) = try await authorize(.send, in: conversationID, alsoReading: replyTo != nil)
        let text = try ChatRules.text(text, carrying: attachments)
        let files = try await store.attachments.uploaded(attachments, for: id, in: conversationID, by: me)
        let mentions = try await store.mentionFinder.mentions(in: text, by: me, members: members)
        return try await store.send(
            id: id, text: text, to: conversationID, replyTo: replyTo, mentions: mentions, attachments: files, from: me, members: members)
    }

    public func edit(_ messageID: MessageID, in conversationID: ConversationID, text: String) async throws -> Message {
        let (me, members) = try await authorize(.send, in: conversationID)
        let text = try Validation.messageText(text)
        let now = store.clock.now()
        return try await store.change(messageID, in: conversationID, as: .edited, members: members) {
            try ChatRules.edit($0, to: text, by: me, at: now)
        }
    }

    public func delete(_ messageID: MessageID, in conversationID: ConversationID) async throws -> Message {
        try await store.conditions.apply()
        let (me, _) = try await caller.id(to: .send, in: conversationID)
        let (members, isMember) = try await store.membership.membership(of: me, in: conversationID)
        let now = store.clock.now()
        return try await store.attachments.discarding { carried in
            try await ChatRules.deletion(in: conversationID, member: isMember) {
                try await store.change(messageID, in: conversationID, as: .deleted, members: members) {
                    try carried(ChatRules.delete($0, by: me, member: isMember, at: now), $0)
                }
            }
        }
    }

    public func react(to messageID: MessageID, in conversationID: ConversationID, with emoji: String, adding: Bool) async throws -> Message {
        let (me, members) = try await authorize(.send, in: conversationID, alsoReading: true)
        let emoji = try Validation.reaction(emoji)
        return try await store.change(messageID, in: conversationID, as: .reacted, members: members) {
            try ChatRules.react($0, with: emoji, by: me, adding: adding)
        }
    }

    public func markRead(_ conversationID: ConversationID) async throws {
        let (me, members) = try await authorize(.read, in: conversationID)
        let apart = try await store.membership.people(apartFrom: me, under: try await caller.principal().grant)
        await store.markRead(conversationID, by: me, members: members, apart: apart)
    }

    public func receipts(in conversationID: ConversationID) async throws -> [ReadReceipt] {
        let (me, members) = try await authorize(.read, in: conversationID)
        return await store.receipts(
            in: conversationID, for: me, members: members,
            apart: try await store.membership.people(apartFrom: me, under: try await caller.principal().grant))
    }

    public func setReceiptsPrivate(_ isPrivate: Bool) async throws {
        try await store.conditions.apply()
        await store.setReceiptsPrivate(isPrivate, for: try await caller.id())
    }

    @discardableResult
    private func authorize(_ ability: BotScope.Ability, in conversationID: ConversationID, alsoReading: Bool = false) async throws -> (
        me: UserID, members: [UserID]
    ) {
        try await store.conditions.apply()
        return try await store.membership.require(caller, to: ability, in: conversationID, alsoReading: alsoReading)
    }
}
