import Chat
import Foundation
import GRDB
import Kernel
import SQLStore

/// One caller's view of the messages in the SQLite database. A send is acknowledged once its
/// transaction has committed; live readers in any process get it through their process's
/// `StoreEventFeed`.
public struct SQLChatService: ChatService {
    private let database: SQLDatabase
    private let chat: CallerChat

    /// Creates the service for `caller` over an open database (whose epoch is `epoch`,
    /// `ChatSchema.epoch`), the process's message writer, the (cached) membership port, the names port (for mentions), the
    /// process's event feed and typing hub; each send and change spends from `budget`'s messages and fan-out, each read and change of receipt privacy from its look-ups.
    public init(
        database: SQLDatabase, epoch: String, writer: MessageWriter, membership: any ConversationMembership, names: any MemberNames,
        feed: any EventFeed, typing: TypingHub, caller: Caller, clock: any WallClock = SystemWallClock(), budget: UsageBudget = .unlimited
    ) {
        self.database = database
        chat = CallerChat(
            writer: writer, membership: membership, mentions: MentionFinder(membership: membership, names: names), feed: feed,
            typing: typing, caller: caller, clock: clock, budget: budget, epoch: epoch)
    }

    public func latestMessages(in conversationID: ConversationID, limit: Int) async throws -> MessagePage {
        try await chat.authorize(conversationID)
        return try await page(conversationID, below: Int.max, limit: limit)
    }

    public func messages(in conversationID: ConversationID, before messageID: MessageID, limit: Int) async throws -> MessagePage {
        try await chat.authorize(conversationID)
        let position = try await database.read { db in
            try Int.fetchOne(db, sql: ChatStatements.position, arguments: [messageID.rawValue, conversationID.rawValue])
        }
        guard let position else { throw ChatRules.noMessage(messageID, in: conversationID) }
        return try await page(conversationID, below: position, limit: limit)
    }

    public nonisolated(nonsending) func send(id: MessageID, text: String, to conversationID: ConversationID, replyTo: MessageID?) async throws
        -> Message
    {
        try await chat.send(id: id, text: text, to: conversationID, replyTo: replyTo)
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
        let (me, members, apart) = try await chat.reader(of: conversationID)
        try await database.write { db in
            let count =
                try Int.fetchOne(
                    db, sql: "SELECT message_count FROM chat_activity WHERE conversation_id = ?",
                    arguments: [conversationID.rawValue]) ?? 0
            let read =
                try Int.fetchOne(
                    db, sql: "SELECT read_count FROM chat_reads WHERE user_id = ? AND conversation_id = ?",
                    arguments: [me.rawValue, conversationID.rawValue]) ?? 0
            guard count > read else { return }
            try ChatReads.set(count, by: me, in: conversationID, db)
            let keepingPrivate = Set(
                try String.fetchAll(
                    db, sql: "SELECT user_id FROM json_each(?) ids CROSS JOIN chat_receipt_privacy p ON p.user_id = ids.value",
                    arguments: [try JSONIDs.encode(members)]
                ).map(UserID.init(rawValue:)))
            try SQLChangeLog.record(
                .readMarkerMoved(in: conversationID, by: me),
                audience: ChatRules.receiptAudience(of: me, members: members, keepingPrivate: keepingPrivate, apart: apart), db)
        }
    }

    public func receipts(in conversationID: ConversationID) async throws -> [ReadReceipt] {
        let (me, _, apart) = try await chat.reader(of: conversationID)
        return try await database.read { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM chat_receipt_privacy WHERE user_id = ?", arguments: [me.rawValue]) == nil else {
                return []
            }
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT c.user_id, coalesce(r.read_count, 0), m.id FROM conversation_members c
                    LEFT JOIN chat_reads r ON r.conversation_id = c.conversation_id AND r.user_id = c.user_id
                    LEFT JOIN messages m ON m.conversation_id = c.conversation_id AND m.position = r.read_count
                    WHERE c.conversation_id = ? AND c.state = 'member' AND c.user_id != ?
                      AND c.user_id NOT IN (SELECT user_id FROM chat_receipt_privacy) ORDER BY c.user_id
                    """, arguments: [conversationID.rawValue, me.rawValue]
            ).map { row in
                ReadReceipt(
                    userID: UserID(try row.decode(String.self, atIndex: 0)), readCount: try row.decode(atIndex: 1),
                    lastRead: try row.decode(String?.self, atIndex: 2).map(MessageID.init(rawValue:)))
            }.filter { !apart.contains($0.userID) }
        }
    }

    public func setReceiptsPrivate(_ isPrivate: Bool) async throws {
        let me = try await chat.caller.id()
        try chat.budget.spend(.lookup, by: me)
        try await database.write { db in
            try db.execute(
                sql: isPrivate
                    ? "INSERT OR IGNORE INTO chat_receipt_privacy (user_id) VALUES (?)"
                    : "DELETE FROM chat_receipt_privacy WHERE user_id = ?", arguments: [me.rawValue])
        }
    }

    public func setTyping(_ typing: Bool, in conversationID: ConversationID) async throws {
        try await chat.setTyping(typing, in: conversationID)
    }

    public func typingNotices() async throws -> AsyncStream<TypingNotice> { try await chat.typingNotices() }

    public func liveMessages(in conversationID: ConversationID?) async throws -> AsyncStream<Message> {
        try await chat.liveMessages(in: conversationID)
    }

    public func liveEvents() async throws -> AsyncStream<UserEvent> { try await chat.liveEvents() }

    public func events(after cursor: EventCursor, limit: Int) async throws -> [UserEvent] {
        let me = try await chat.caller.id()
        try await chat.check(cursor) { try await database.read(SQLChangeLog.newest) }
        let (epoch, limit) = (chat.epoch, min(max(limit, 0), ChatRules.catchUpLimit))
        return try await chat.catchUp {
            try await database.read { db in try EventRows.events(after: cursor.position, for: me, limit: limit, epoch: epoch, db) }
        }
    }

    public func messages(after cursor: EventCursor, in conversationID: ConversationID?, limit: Int) async throws -> [Message] {
        let me = try await chat.caller.id()
        if let conversationID { try await chat.authorize(conversationID) }
        try await chat.check(cursor) { try await database.read(SQLChangeLog.newest) }
        let (epoch, limit) = (chat.epoch, min(max(limit, 0), ChatRules.catchUpLimit))
        return try await chat.catchUp {
            try await database.read { db in
                let rows =
                    if let conversationID {
                        try Row.fetchAll(
                            db,
                            sql: """
                                SELECT \(MessageRows.columns) FROM messages m \(MessageRows.replyJoin) WHERE m.conversation_id = ? AND m.seq > ? ORDER BY m.seq LIMIT ?
                                """,
                            arguments: [conversationID.rawValue, cursor.position, limit])
                    } else {
                        try Row.fetchAll(
                            db,
                            sql: """
                                SELECT \(MessageRows.columns) FROM messages m
                                JOIN conversation_members c ON c.conversation_id = m.conversation_id AND c.user_id = ? AND c.state = 'member'
                                \(MessageRows.replyJoin)
                                WHERE m.seq > ? ORDER BY m.seq LIMIT ?
                                """, arguments: [me.rawValue, cursor.position, limit])
                    }
                return try rows.map { try MessageRows.message($0, epoch: epoch) }
            }
        }
    }

    public func newestCursor() async throws -> EventCursor? {
        let me = try await chat.caller.id()
        let epoch = chat.epoch
        return try await database.read { db in try EventRows.newest(for: me, db).map { EventCursor(epoch: epoch, position: $0) } }
    }

    private func page(_ conversationID: ConversationID, below position: Int, limit: Int) async throws -> MessagePage {
        let epoch = chat.epoch
        return try await chat.history {
            try await database.read { db in
                let rows = try Row.fetchAll(db, sql: ChatStatements.page, arguments: [conversationID.rawValue, position, max(limit, 0)])
                let oldest = try rows.last?.decode(Int.self, atIndex: MessageRows.count)
                return MessagePage(messages: try rows.reversed().map { try MessageRows.message($0, epoch: epoch) }, hasOlder: (oldest ?? 1) > 1)
            }
        }
    }
}
