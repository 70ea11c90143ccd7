import Chat
import Foundation
import GRDB
import Kernel
import SQLStore

/// One caller's view of the messages in the SQLite database. A send is acknowledged once its
/// transaction has committed; live readers in any process get it through their process's
/// `SQLEventFeed`.
public struct SQLChatService: ChatService {
    private let database: SQLDatabase
    private let writer: MessageWriter
    private let membership: any ConversationMembership
    private let feed: any EventFeed
    private let caller: Caller
    private let clock: any WallClock
    private let epoch: String
    private let budget: UsageBudget

    /// Creates the service for `caller` over an open database (whose epoch is `epoch`,
    /// `ChatSchema.epoch`), the process's message writer, the (cached) membership port and the
    /// process's event feed; each send spends from `budget`.
    public init(database: SQLDatabase, epoch: String, writer: MessageWriter, membership: any ConversationMembership, feed: any EventFeed,
                caller: Caller, clock: any WallClock = SystemWallClock(), budget: UsageBudget = .unlimited) {
        self.database = database
        self.writer = writer
        self.epoch = epoch
        self.membership = membership
        self.feed = feed
        self.caller = caller
        self.clock = clock
        self.budget = budget
    }

    public func latestMessages(in conversationID: ConversationID, limit: Int) async throws -> MessagePage {
        try await authorize(conversationID)
        return try await page(conversationID, below: Int.max, limit: limit)
    }

    public func messages(in conversationID: ConversationID, before messageID: MessageID, limit: Int) async throws -> MessagePage {
        try await authorize(conversationID)
        let position = try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT position FROM messages WHERE id = ? AND conversation_id = ?",
                             arguments: [messageID.rawValue, conversationID.rawValue])
        }
        guard let position else { throw ChatRules.noMessage(messageID, in: conversationID) }
        return try await page(conversationID, below: position, limit: limit)
    }

    public nonisolated(nonsending) func send(id: MessageID, text: String, to conversationID: ConversationID) async throws -> Message {
        let me = try await caller.id()
        let members = try await membership.requireMember(me, of: conversationID)
        return try await writer.store(try checked(text, to: conversationID, id: id, from: me, members: members))
    }

    /// A send of `text` by a member, checked and paid for: one message and its fan-out (its
    /// bytes times the others it goes to) from the sender's budget.
    private func checked(_ text: String, to conversationID: ConversationID, id: MessageID, from me: UserID, members: [UserID]) throws
        -> MessageWriter.Send {
        let text = try Validation.messageText(text)
        try budget.spend(.fanOutBytes, by: me, cost: text.utf8.count * max(1, members.count - 1))
        try budget.spend(.message, by: me)
        return MessageWriter.Send(id: id, text: text, conversationID: conversationID, sender: me,
                                  sentAt: Int((clock.now().timeIntervalSince1970 * 1_000).rounded(.down)), members: members)
    }

    /// Checks each draft as `send(id:text:to:)` does, then hands those that pass to the writer
    /// together, so that they are stored in the order given, in as few transactions as the
    /// writer's load allows.
    public func send(_ drafts: [Message.Draft]) async -> [Result<Message, any Error>] {
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
            checked.append(Result {
                try self.checked(draft.text, to: draft.conversationID, id: draft.id, from: me, members: audiences[draft.conversationID]?.get() ?? [])
            })
        }
        var stored = await writer.store(checked.compactMap { try? $0.get() }).makeIterator()
        return checked.map { check in
            check.flatMap { _ in stored.next() ?? .failure(AppError(.internal, "the writer answered fewer sends than it was given")) }
        }
    }

    public func markRead(_ conversationID: ConversationID) async throws {
        let me = try await authorize(conversationID)
        try await database.write { db in
            let count = try Int.fetchOne(db, sql: "SELECT message_count FROM chat_activity WHERE conversation_id = ?",
                                         arguments: [conversationID.rawValue]) ?? 0
            let read = try Int.fetchOne(db, sql: "SELECT read_count FROM chat_reads WHERE user_id = ? AND conversation_id = ?",
                                        arguments: [me.rawValue, conversationID.rawValue]) ?? 0
            guard count > read else { return }
            try ChatReads.set(count, by: me, in: conversationID, db)
            try SQLChangeLog.record(.readMarkerMoved(in: conversationID, by: me), audience: [me], db)
        }
    }

    public func liveMessages(in conversationID: ConversationID?) async throws -> AsyncStream<Message> {
        let me = try await caller.id()
        if let conversationID { try await membership.requireMember(me, of: conversationID) }
        return caller.guarding(try await feed.subscribe(conversation: conversationID, member: me).compactMapped(\.message))
    }

    public func liveEvents() async throws -> AsyncStream<UserEvent> {
        caller.guarding(try await feed.subscribe(conversation: nil, member: try await caller.id()))
    }

    public func events(after cursor: EventCursor, limit: Int) async throws -> [UserEvent] {
        let me = try await caller.id()
        try checkEpoch(of: cursor)
        let (epoch, limit) = (epoch, min(max(limit, 0), ChatRules.catchUpLimit))
        return try await database.read { db in
            try Self.checkReached(cursor, db)
            return try EventRows.events(after: cursor.position, for: me, limit: limit, epoch: epoch, db)
        }
    }

    public func messages(after cursor: EventCursor, in conversationID: ConversationID?, limit: Int) async throws -> [Message] {
        let me = try await caller.id()
        if let conversationID { try await membership.requireMember(me, of: conversationID) }
        try checkEpoch(of: cursor)
        let (epoch, limit) = (epoch, min(max(limit, 0), ChatRules.catchUpLimit))
        return try await database.read { db in
            try Self.checkReached(cursor, db)
            let rows = if let conversationID {
                try Row.fetchAll(db, sql: "SELECT \(MessageRows.columns) FROM messages m WHERE m.conversation_id = ? AND m.seq > ? ORDER BY m.seq LIMIT ?",
                                 arguments: [conversationID.rawValue, cursor.position, limit])
            } else {
                try Row.fetchAll(db, sql: """
                    SELECT \(MessageRows.columns) FROM messages m
                    JOIN conversation_members c ON c.conversation_id = m.conversation_id AND c.user_id = ? AND c.state = 'member'
                    WHERE m.seq > ? ORDER BY m.seq LIMIT ?
                    """, arguments: [me.rawValue, cursor.position, limit])
            }
            return try rows.map { try MessageRows.message($0, epoch: epoch) }
        }
    }

    public func newestCursor() async throws -> EventCursor? {
        let me = try await caller.id()
        let epoch = epoch
        return try await database.read { db in try EventRows.newest(for: me, db).map { EventCursor(epoch: epoch, position: $0) } }
    }

    private func checkEpoch(of cursor: EventCursor) throws {
        guard cursor.epoch == epoch else { throw ChatRules.foreignCursor(cursor) }
    }

    /// A position this store has not reached: a cursor of a copy restored from elsewhere.
    private static func checkReached(_ cursor: EventCursor, _ db: Database) throws {
        guard cursor.position <= (try SQLChangeLog.newest(db)) else { throw ChatRules.foreignCursor(cursor) }
    }

    @discardableResult
    private func authorize(_ conversationID: ConversationID) async throws -> UserID {
        let me = try await caller.id()
        try await membership.requireMember(me, of: conversationID)
        return me
    }

    private func page(_ conversationID: ConversationID, below position: Int, limit: Int) async throws -> MessagePage {
        try await database.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(MessageRows.columns), m.position FROM messages m WHERE conversation_id = ? AND position < ? ORDER BY position DESC LIMIT ?
                """, arguments: [conversationID.rawValue, position, max(limit, 0)])
            let oldest = try rows.last?.decode(Int.self, atIndex: MessageRows.count)
            return MessagePage(messages: try rows.reversed().map { try MessageRows.message($0, epoch: epoch) }, hasOlder: (oldest ?? 1) > 1)
        }
    }
}
