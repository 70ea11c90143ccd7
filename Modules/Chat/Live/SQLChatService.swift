import Chat
import Foundation
import GRDB
import Kernel
import SQLStore

/// Messages in the SQLite database. A send is acknowledged once its transaction has committed;
/// live readers in any process see it on the next change tick and read only rows past their
/// cursor.
public struct SQLChatService: ChatService, ChatActivityFeed {
    private let database: SQLDatabase
    private let members: MembershipCache
    private let sessions: any SessionStore
    private let clock: any WallClock

    /// Creates the service over an open database and the membership port.
    public init(database: SQLDatabase, membership: any ConversationMembership, sessions: any SessionStore,
                clock: any WallClock = SystemWallClock()) {
        self.database = database
        members = MembershipCache(membership)
        self.sessions = sessions
        self.clock = clock
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
        guard let position else { throw AppError(.notFound, "no message '\(messageID)' in conversation \(conversationID)") }
        return try await page(conversationID, below: position, limit: limit)
    }

    public func send(id: MessageID, text: String, to conversationID: ConversationID) async throws -> Message {
        let me = try await authorize(conversationID)
        let text = try Validation.messageText(text)
        let sentAt = Int((clock.now().timeIntervalSince1970 * 1_000).rounded(.down))
        return try await database.write { db in
            let position = (try Int.fetchOne(db.cachedStatement(sql: "SELECT message_count FROM chat_activity WHERE conversation_id = ?"),
                                             arguments: [conversationID.rawValue]) ?? 0) + 1
            try db.cachedStatement(sql: """
                INSERT INTO messages (id, conversation_id, position, sender_id, text, sent_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO NOTHING
                """).execute(arguments: [id.rawValue, conversationID.rawValue, position, me.rawValue, text, sentAt])
            guard db.changesCount > 0 else { return try Self.existing(id, conversationID: conversationID, sender: me, text: text, db) }
            try db.cachedStatement(sql: """
                INSERT INTO chat_activity (conversation_id, message_count, last_seq) VALUES (?, ?, ?)
                ON CONFLICT (conversation_id) DO UPDATE SET message_count = excluded.message_count, last_seq = excluded.last_seq
                """).execute(arguments: [conversationID.rawValue, position, db.lastInsertedRowID])
            try Self.setRead(position, by: me, in: conversationID, db)
            return Message(id: id, conversationID: conversationID, senderID: me, text: text, sentAt: Self.date(milliseconds: sentAt))
        }
    }

    /// The stored message with a resent id; a different message under the same id is a conflict.
    private static func existing(_ id: MessageID, conversationID: ConversationID, sender: UserID, text: String,
                                 _ db: Database) throws -> Message {
        let existing = try Row.fetchOne(db, sql: "SELECT \(columns) FROM messages m WHERE id = ?", arguments: [id.rawValue]).map(message)
        guard let existing, existing.conversationID == conversationID, existing.senderID == sender, existing.text == text else {
            throw AppError(.conflict, "message id \(id) is already used by another message")
        }
        return existing
    }

    public func markRead(_ conversationID: ConversationID) async throws {
        let me = try await authorize(conversationID)
        try await database.write { db in
            let count = try Int.fetchOne(db, sql: "SELECT message_count FROM chat_activity WHERE conversation_id = ?",
                                         arguments: [conversationID.rawValue]) ?? 0
            try Self.setRead(count, by: me, in: conversationID, db)
        }
    }

    public func liveMessages(in conversationID: ConversationID?) async throws -> AsyncStream<Message> {
        let me = try sessions.requireSession().userID
        if let conversationID { try await members.requireMember(me, of: conversationID) }
        let ticks = database.changes.subscribe()
        let start = try await database.read { db in try Int.fetchOne(db, sql: "SELECT max(seq) FROM messages") ?? 0 }
        let database = database, members = members
        return AsyncStream { continuation in
            let reader = Task {
                var cursor = start
                for await _ in ticks {
                    guard let batch = try? await Self.messages(after: cursor, in: conversationID, database) else { continue }
                    cursor = batch.cursor
                    for message in batch.messages {
                        if conversationID == nil, await !members.isMember(me, of: message.conversationID) { continue }
                        continuation.yield(message)
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in reader.cancel() }
        }
    }

    public func activity(of conversationIDs: [ConversationID], for reader: UserID) async throws -> [ConversationID: ChatActivity] {
        guard !conversationIDs.isEmpty else { return [:] }
        let list = try JSONIDs.encode(conversationIDs)
        return try await database.read { db in
            var activity: [ConversationID: ChatActivity] = [:]
            activity.reserveCapacity(conversationIDs.count)
            let rows = try Row.fetchCursor(db, sql: """
                SELECT \(Self.columns), a.message_count - coalesce(r.read_count, 0)
                FROM json_each(?) ids
                JOIN chat_activity a ON a.conversation_id = ids.value
                JOIN messages m ON m.seq = a.last_seq
                LEFT JOIN chat_reads r ON r.conversation_id = a.conversation_id AND r.user_id = ?
                """, arguments: [list, reader.rawValue])
            while let row = try rows.next() {
                let message = Self.message(row)
                activity[message.conversationID] = ChatActivity(lastMessage: message, unreadCount: max(0, row[5]))
            }
            return activity
        }
    }

    public func activityChanges() async throws -> AsyncStream<Void> { database.changes.subscribe() }

    @discardableResult
    private func authorize(_ conversationID: ConversationID) async throws -> UserID {
        let me = try sessions.requireSession().userID
        try await members.requireMember(me, of: conversationID)
        return me
    }

    private func page(_ conversationID: ConversationID, below position: Int, limit: Int) async throws -> MessagePage {
        try await database.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(Self.columns), m.position FROM messages m WHERE conversation_id = ? AND position < ? ORDER BY position DESC LIMIT ?
                """, arguments: [conversationID.rawValue, position, max(limit, 0)])
            let oldest: Int? = rows.last?[5]
            return MessagePage(messages: rows.reversed().map(Self.message), hasOlder: (oldest ?? 1) > 1)
        }
    }

    /// Messages past `cursor` (in one conversation, or all), and the cursor to use next: the
    /// newest `seq` of the snapshot, so rows of other conversations are not scanned again.
    private static func messages(after cursor: Int, in conversationID: ConversationID?, _ database: SQLDatabase) async throws
        -> (messages: [Message], cursor: Int) {
        try await database.read { db in
            let newest = try Int.fetchOne(db, sql: "SELECT max(seq) FROM messages") ?? cursor
            let rows = if let conversationID {
                try Row.fetchAll(db, sql: "SELECT \(columns) FROM messages m WHERE seq > ? AND seq <= ? AND conversation_id = ? ORDER BY seq",
                                 arguments: [cursor, newest, conversationID.rawValue])
            } else {
                try Row.fetchAll(db, sql: "SELECT \(columns) FROM messages m WHERE seq > ? AND seq <= ? ORDER BY seq", arguments: [cursor, newest])
            }
            return (rows.map(message), newest)
        }
    }

    private static func setRead(_ count: Int, by reader: UserID, in conversationID: ConversationID, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO chat_reads (user_id, conversation_id, read_count) VALUES (?, ?, ?)
            ON CONFLICT (user_id, conversation_id) DO UPDATE SET read_count = max(read_count, excluded.read_count)
            """).execute(arguments: [reader.rawValue, conversationID.rawValue, count])
    }

    /// The columns `message(_:)` reads, in its order, for `SELECT`s.
    private static let columns = "m.id, m.conversation_id, m.sender_id, m.text, m.sent_at"

    /// A message from a row whose first columns are `columns` (by position: much faster than by name).
    private static func message(_ row: Row) -> Message {
        Message(id: MessageID(row[0] as String), conversationID: ConversationID(row[1] as String),
                senderID: UserID(row[2] as String), text: row[3], sentAt: date(milliseconds: row[4]))
    }

    /// Message times are stored as whole milliseconds since 1970, exactly.
    private static func date(milliseconds: Int) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1_000) }
}
