import Chat
import Foundation
import Kernel

/// One caller's view of the messages of a store (`ChatHistoryStore`: SQLite's or PostgreSQL's),
/// written once for both: sends and changes checked, paid for and handed to the process's
/// writer (`CallerChat`), and reads authorized, cut and paid for (`CallerReads`). A send is
/// acknowledged once the transaction holding it has committed; live readers in any process get
/// it through their process's `StoreEventFeed` (`StoredEventStreamService`).
public struct StoredChatService: ChatService {
    private let store: any ChatHistoryStore
    private let chat: CallerChat
    private let reads: CallerReads

    /// Creates the service for `caller` over `store`, the process's message writer, the (cached)
    /// membership port and the names port (for mentions); each send and change spends from
    /// `budget`'s messages and fan-out, each read and change of receipt privacy from its look-ups;
    /// sends carry the files `attachments` has for them.
    public init(
        store: any ChatHistoryStore, writer: MessageWriter, membership: any ConversationMembership, names: any MemberNames, caller: Caller,
        clock: any WallClock = SystemWallClock(), budget: UsageBudget = .unlimited, attachments: any AttachmentSource = NoAttachments()
    ) {
        self.store = store
        chat = CallerChat(
            writer: writer, membership: membership, mentions: MentionFinder(membership: membership, names: names), caller: caller,
            clock: clock, budget: budget, attachments: AttachedFiles(attachments))
        reads = CallerReads(membership: membership, caller: caller, budget: budget, epoch: store.epoch)
    }

    public func latestMessages(in conversationID: ConversationID, limit: Int) async throws -> MessagePage {
        try await reads.authorize(conversationID)
        return try await reads.history { try await store.page(of: conversationID, below: .max, limit: max(limit, 0)) }
    }

    public func messages(in conversationID: ConversationID, before messageID: MessageID, limit: Int) async throws -> MessagePage {
        try await reads.authorize(conversationID)
        guard let position = try await store.position(of: messageID, in: conversationID) else {
            throw ChatRules.noMessage(messageID, in: conversationID)
        }
        return try await reads.history { try await store.page(of: conversationID, below: position, limit: max(limit, 0)) }
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
        try await chat.edit(messageID, in: conversationID, text: text)
    }

    public func delete(_ messageID: MessageID, in conversationID: ConversationID) async throws -> Message {
        try await chat.delete(messageID, in: conversationID)
    }

    public func react(to messageID: MessageID, in conversationID: ConversationID, with emoji: String, adding: Bool) async throws -> Message {
        try await chat.react(to: messageID, in: conversationID, with: emoji, adding: adding)
    }

    public func markRead(_ conversationID: ConversationID) async throws {
        let (me, members, apart) = try await reads.reader(of: conversationID)
        try await store.markRead(conversationID, by: me, members: members) { keepingPrivate in
            ChatRules.receiptAudience(of: me, members: members, keepingPrivate: keepingPrivate, apart: apart)
        }
    }

    public func receipts(in conversationID: ConversationID) async throws -> [ReadReceipt] {
        let (me, members, apart) = try await reads.reader(of: conversationID)
        let keepingPrivate = try await store.keepingReceiptsPrivate(among: members)
        return ChatRules.receiptsShown(try await store.receipts(in: conversationID), to: me, keepingPrivate: keepingPrivate, apart: apart)
    }

    public func setReceiptsPrivate(_ isPrivate: Bool) async throws {
        let me = try await chat.caller.id()
        try chat.budget.spend(.lookup, by: me)
        try await store.setReceiptsPrivate(isPrivate, for: me)
    }
}
