import ConversationList
import Foundation
import GRDB
import Kernel
import SQLStore

/// One caller's view of the conversations in the SQLite database. Titles and activity come
/// through the same ports as in memory; `changes()` ticks on any commit to the file, from any process.
public struct SQLConversationListService: ConversationListService {
    private let database: SQLDatabase
    private let builder: SummaryBuilder
    private let caller: Caller
    private let clock: any WallClock
    private let budget: UsageBudget

    /// Creates the service for `caller` over an open database and the list's summary builder;
    /// each conversation started spends from `budget`.
    public init(database: SQLDatabase, builder: SummaryBuilder, caller: Caller, clock: any WallClock = SystemWallClock(),
                budget: UsageBudget = .unlimited) {
        self.database = database
        self.builder = builder
        self.caller = caller
        self.clock = clock
        self.budget = budget
    }

    public func conversations() async throws -> [ConversationSummary] {
        let me = try await caller.id()
        let conversations = try await database.read { db in
            try Row.fetchCursor(db, sql: """
                SELECT c.id, c.title, c.created_at, c.members
                FROM conversation_members mine JOIN conversations c INDEXED BY conversations_for_list ON c.id = mine.conversation_id
                WHERE mine.user_id = ?
                """, arguments: [me.rawValue]).map(Self.conversation).reduce(into: []) { $0.append($1) }
        }
        return try await builder.summaries(of: conversations, for: me)
    }

    public func startDirect(with userID: UserID) async throws -> ConversationSummary {
        let me = try await caller.id()
        try await builder.checkDirect(from: me, with: userID)
        let key = [me.rawValue, userID.rawValue].sorted().joined(separator: "|")
        if let existing = try await database.read({ db in try String.fetchOne(db, sql: "SELECT id FROM conversations WHERE direct_key = ?", arguments: [key]) }) {
            return try await summary(of: ConversationID(existing), for: me)
        }
        try budget.spend(.conversation, by: me)
        let candidate = ConversationID.random()
        let now = clock.now()
        let id = try await database.write { db in
            try db.execute(sql: """
                INSERT INTO conversations (id, title, direct_key, created_at, members) VALUES (?, NULL, ?, ?, ?) ON CONFLICT DO NOTHING
                """, arguments: [candidate.rawValue, key, now, Self.memberList([me, userID])])
            if db.changesCount > 0 {
                try Self.insertMembers([me, userID], into: candidate, db)
                try SQLChangeLog.record(.conversationAdded(candidate), db)
            }
            return try String.fetchOne(db, sql: "SELECT id FROM conversations WHERE direct_key = ?", arguments: [key]) ?? candidate.rawValue
        }
        return try await summary(of: ConversationID(id), for: me)
    }

    public func createGroup(title: String, memberIDs: [UserID]) async throws -> ConversationSummary {
        let me = try await caller.id()
        let (title, members) = try await builder.checkGroup(title: title, creator: me, adding: memberIDs)
        try budget.spend(.conversation, by: me)
        let id = ConversationID.random()
        let now = clock.now()
        try await database.write { db in
            try db.execute(sql: "INSERT INTO conversations (id, title, direct_key, created_at, members) VALUES (?, ?, NULL, ?, ?)",
                           arguments: [id.rawValue, title, now, Self.memberList(members)])
            try Self.insertMembers(members, into: id, db)
            try SQLChangeLog.record(.conversationAdded(id), db)
        }
        return try await summary(of: id, for: me)
    }

    public func changes() async throws -> AsyncStream<Void> {
        _ = try await caller.id()
        return database.changes.subscribe()
    }

    private func summary(of id: ConversationID, for reader: UserID) async throws -> ConversationSummary {
        let conversation = try await database.read { db in
            try Row.fetchOne(db, sql: """
                SELECT id, title, created_at, members FROM conversations WHERE id = ?
                """, arguments: [id.rawValue]).map(Self.conversation)
        }
        guard let conversation else { throw AppError.noConversation(id) }
        return try await builder.summary(of: conversation, for: reader)
    }

    private static func insertMembers(_ members: [UserID], into id: ConversationID, _ db: Database) throws {
        for member in members {
            try db.execute(sql: "INSERT INTO conversation_members (user_id, conversation_id) VALUES (?, ?)",
                           arguments: [member.rawValue, id.rawValue])
        }
    }

    private static func memberList(_ members: [UserID]) -> String { members.map(\.rawValue).joined(separator: ",") }

    /// A conversation from a row of `id, title, created_at, members` (positional: much faster than by name).
    /// - Throws: GRDB's `RowDecodingError` for a damaged row (a NULL or a wrong type).
    private static func conversation(_ row: Row) throws -> Conversation {
        let members = try row.decode(String.self, atIndex: 3).utf8.split(separator: UInt8(ascii: ",")).map { UserID(String(decoding: $0, as: UTF8.self)) }
        return Conversation(id: ConversationID(try row.decode(String.self, atIndex: 0)), title: try row.decode(atIndex: 1), memberIDs: members,
                            createdAt: try row.decode(atIndex: 2))
    }
}
