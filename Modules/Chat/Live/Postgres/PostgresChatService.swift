import Chat
import Foundation
import Kernel
import PostgresNIO
import PostgresStore

/// One caller's view of the messages in a PostgreSQL database. A send is acknowledged once the
/// batch holding it has committed; live readers on any instance get it through their
/// instance's `StoreEventFeed`.
public struct PostgresChatService: ChatService {
    private let database: PGDatabase
    private let chat: CallerChat

    /// Creates the service for `caller` over an open database (whose epoch is `epoch`,
    /// `PostgresChatSchema.epoch`), the instance's message writer, the (cached) membership port, the names port (for mentions)
    /// and the instance's event feed and typing hub; each send and change spends from `budget`'s messages and fan-out, each read and change of receipt privacy from its look-ups.
    public init(
        database: PGDatabase, epoch: String, writer: MessageWriter, membership: any ConversationMembership, names: any MemberNames,
        feed: any EventFeed, typing: TypingHub, caller: Caller, clock: any WallClock = SystemWallClock(), budget: UsageBudget = .unlimited
    ) {
        self.database = database
        chat = CallerChat(
            writer: writer, membership: membership, mentions: MentionFinder(membership: membership, names: names), feed: feed,
            typing: typing, caller: caller, clock: clock, budget: budget, epoch: epoch)
    }

    public func latestMessages(in conversationID: ConversationID, limit: Int) async throws -> MessagePage {
        try await chat.authorize(conversationID)
        return try await page(conversationID, below: Int64.max, limit: limit)
    }

    public func messages(in conversationID: ConversationID, before messageID: MessageID, limit: Int) async throws -> MessagePage {
        try await chat.authorize(conversationID)
        let position = try await database.query(PostgresChatStatements.position(of: messageID, in: conversationID)).first?.decode(Int64.self)
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
        try await database.write { transaction in
            let rows = try await transaction.query(
                """
                SELECT coalesce((SELECT message_count FROM chat_activity WHERE conversation_id = \(conversationID.rawValue)), 0),
                       coalesce((SELECT read_count FROM chat_reads WHERE user_id = \(me.rawValue) AND conversation_id = \(conversationID.rawValue)), 0)
                """)
            guard let (count, read) = try rows.first?.decode((Int64, Int64).self), count > read else { return }
            try await transaction.query(
                """
                INSERT INTO chat_reads (user_id, conversation_id, read_count) VALUES (\(me.rawValue), \(conversationID.rawValue), \(count))
                ON CONFLICT (user_id, conversation_id) DO UPDATE SET read_count = greatest(chat_reads.read_count, excluded.read_count)
                """)
            var keepingPrivate: Set<UserID> = []
            for row in try await transaction.query("SELECT user_id FROM chat_receipt_privacy WHERE user_id = ANY(\(members.map(\.rawValue)))") {
                keepingPrivate.insert(UserID(try row.decode(String.self)))
            }
            try await PostgresChangeLog.record(
                .readMarkerMoved(in: conversationID, by: me),
                audience: ChatRules.receiptAudience(of: me, members: members, keepingPrivate: keepingPrivate, apart: apart),
                transaction)
        }
    }

    public func receipts(in conversationID: ConversationID) async throws -> [ReadReceipt] {
        let (me, _, apart) = try await chat.reader(of: conversationID)
        guard try await database.query("SELECT 1 FROM chat_receipt_privacy WHERE user_id = \(me.rawValue)").isEmpty else { return [] }
        return try await database.query(
            """
            SELECT c.user_id, coalesce(r.read_count, 0), m.id FROM conversation_members c
            LEFT JOIN chat_reads r ON r.conversation_id = c.conversation_id AND r.user_id = c.user_id
            LEFT JOIN messages m ON m.conversation_id = c.conversation_id AND m.position = r.read_count
            WHERE c.conversation_id = \(conversationID.rawValue) AND c.state = 'member' AND c.user_id != \(me.rawValue)
              AND c.user_id NOT IN (SELECT user_id FROM chat_receipt_privacy) ORDER BY c.user_id
            """
        ).map { row in
            let (user, count, last) = try row.decode((String, Int64, String?).self)
            return ReadReceipt(userID: UserID(user), readCount: Int(count), lastRead: last.map(MessageID.init(rawValue:)))
        }.filter { !apart.contains($0.userID) }
    }

    public func setReceiptsPrivate(_ isPrivate: Bool) async throws {
        let me = try await chat.caller.id()
        try chat.budget.spend(.lookup, by: me)
        try await database.write(ordered: false) { transaction in
            _ = try await transaction.query(
                isPrivate
                    ? "INSERT INTO chat_receipt_privacy (user_id) VALUES (\(me.rawValue)) ON CONFLICT DO NOTHING"
                    : "DELETE FROM chat_receipt_privacy WHERE user_id = \(me.rawValue)")
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
        let top = try await PostgresChangeLog.newest(database)
        try await chat.check(cursor) { top }
        return try await chat.catchUp {
            try await PostgresEventRows.events(
                after: cursor.position, upTo: top, for: me, limit: min(max(limit, 0), ChatRules.catchUpLimit),
                epoch: chat.epoch, database)
        }
    }

    public func messages(after cursor: EventCursor, in conversationID: ConversationID?, limit: Int) async throws -> [Message] {
        let me = try await chat.caller.id()
        if let conversationID { try await chat.authorize(conversationID) }
        let top = try await PostgresChangeLog.newest(database)
        try await chat.check(cursor) { top }
        let limit = min(max(limit, 0), ChatRules.catchUpLimit)
        return try await chat.catchUp { try await rows(after: cursor, upTo: top, in: conversationID, of: me, limit: limit) }
    }

    /// The messages after `cursor` up to `top`, in `conversationID` or in all of `me`'s, at most `limit`.
    private func rows(after cursor: EventCursor, upTo top: Int64, in conversationID: ConversationID?, of me: UserID, limit: Int) async throws
        -> [Message]
    {
        let rows =
            if let conversationID {
                try await database.query(
                    """
                    SELECT \(unescaped: MessageRows.columns) FROM messages m \(unescaped: MessageRows.replyJoin)
                    WHERE m.conversation_id = \(conversationID.rawValue) AND m.seq > \(cursor.position) AND m.seq <= \(top) ORDER BY m.seq LIMIT \(limit)
                    """)
            } else {
                try await database.query(
                    """
                    SELECT \(unescaped: MessageRows.columns) FROM messages m
                    JOIN conversation_members c ON c.conversation_id = m.conversation_id AND c.user_id = \(me.rawValue) AND c.state = 'member'
                    \(unescaped: MessageRows.replyJoin)
                    WHERE m.seq > \(cursor.position) AND m.seq <= \(top) ORDER BY m.seq LIMIT \(limit)
                    """)
            }
        return try rows.map { try PostgresChatSchema.message($0, epoch: chat.epoch) }
    }

    public func newestCursor() async throws -> EventCursor? {
        let me = try await chat.caller.id()
        let newest = try await database.query(
            """
            SELECT greatest(
                (SELECT max(a.last_seq) FROM conversation_members c JOIN chat_activity a ON a.conversation_id = c.conversation_id
                 WHERE c.user_id = \(me.rawValue) AND c.state = 'member'),
                (SELECT max(seq) FROM store_audiences WHERE user_id = \(me.rawValue)),
                (SELECT max(x.seq) FROM conversation_members c JOIN message_changes x ON x.conversation_id = c.conversation_id
                 WHERE c.user_id = \(me.rawValue) AND c.state = 'member'))
            """
        ).first?.decode(Int64?.self)
        return newest.flatMap { $0 }.map { EventCursor(epoch: chat.epoch, position: $0) }
    }

    private func page(_ conversationID: ConversationID, below position: Int64, limit: Int) async throws -> MessagePage {
        try await chat.history { try await rows(of: conversationID, below: position, limit: limit) }
    }

    /// The newest `limit` messages of `conversationID` before `position`.
    private func rows(of conversationID: ConversationID, below position: Int64, limit: Int) async throws -> MessagePage {
        let rows = try await database.query(PostgresChatStatements.page(conversationID, below: position, limit: limit))
        let oldest = try rows.last?.makeRandomAccess()[MessageRows.count].decode(Int64.self)
        return MessagePage(messages: try rows.reversed().map { try PostgresChatSchema.message($0, epoch: chat.epoch) }, hasOlder: (oldest ?? 1) > 1)
    }
}
