import ConversationList
import Foundation
import GRDB
import Kernel
import SQLStore

/// One caller's view of the conversations in the SQLite database, following
/// `ConversationRules`: each change of who is in a conversation is one transaction with its
/// events. Titles and activity come through the same ports as in memory; `changes()` ticks on
/// any commit to the file, from any process.
public struct SQLConversationListService: ConversationListService {
    private let database: SQLDatabase
    private let builder: SummaryBuilder
    private let caller: Caller
    private let clock: any WallClock
    private let budget: UsageBudget
    private let membersChanged: @Sendable (ConversationID) -> Void

    /// Creates the service for `caller` over an open database and the list's summary builder;
    /// each conversation started or left spends from `budget`'s conversations, each block and
    /// unblock from its look-ups, and `membersChanged` hears of each
    /// conversation whose members this service changed (a cache of members forgets it).
    public init(
        database: SQLDatabase, builder: SummaryBuilder, caller: Caller, clock: any WallClock = SystemWallClock(),
        budget: UsageBudget = .unlimited, membersChanged: @escaping @Sendable (ConversationID) -> Void = { _ in }
    ) {
        self.database = database
        self.builder = builder
        self.caller = caller
        self.clock = clock
        self.budget = budget
        self.membersChanged = membersChanged
    }

    public func conversations(limit: Int, after: ConversationID?) async throws -> ConversationPage {
        try ConversationRules.checkPageLimit(limit)
        return try ConversationRules.page(of: try await conversations(), limit: limit, after: after)
    }

    public func conversations() async throws -> [ConversationSummary] {
        let me = try await caller.id()
        let conversations = try await database.read { db in
            try Row.fetchCursor(db, sql: Self.list, arguments: [me.rawValue]).map(Self.conversation).reduce(into: []) { $0.append($1) }
        }
        return try await builder.summaries(of: conversations, for: me)
    }

    public func startDirect(with userID: UserID) async throws -> ConversationSummary {
        let me = try await caller.id()
        try await builder.checkDirect(from: me, with: userID)
        let key = [me.rawValue, userID.rawValue].sorted().joined(separator: "|")
        let existing = try await database.read { db in
            try String.fetchOne(db, sql: "SELECT id FROM conversations WHERE direct_key = ?", arguments: [key])
        }
        if let existing { return try await enter(ConversationID(existing), me: me, accepting: userID) }
        try budget.spend(.conversation, by: me)
        let candidate = ConversationID.random(), now = clock.now()
        let (id, notInvited) = try await database.write { db -> (String, [NotInvited]) in
            try db.execute(
                sql: "INSERT INTO conversations (id, title, direct_key, created_at, members) VALUES (?, NULL, ?, ?, '') ON CONFLICT DO NOTHING",
                arguments: [candidate.rawValue, key, now])
            guard db.changesCount > 0 else {
                // Another process made it first.
                return (try String.fetchOne(db, sql: "SELECT id FROM conversations WHERE direct_key = ?", arguments: [key]) ?? candidate.rawValue, [])
            }
            return (candidate.rawValue, try Self.start(candidate, by: me, with: [userID], adding: [userID], first: true, at: now, db))
        }
        guard id == candidate.rawValue else { return try await enter(ConversationID(id), me: me, accepting: userID) }
        return try await summary(of: candidate, for: me).started(notInviting: notInvited)
    }

    public func createGroup(title: String, memberIDs: [UserID]) async throws -> ConversationSummary {
        let me = try await caller.id()
        let (title, members) = try await builder.checkGroup(title: title, creator: me, adding: memberIDs) { others in
            try budget.spend(.conversation, by: me, cost: ConversationRules.conversationCost(naming: others))
        }
        let id = ConversationID.random(), now = clock.now(), others = Array(members.dropFirst())
        let notInvited = try await database.takingTurns {
            try await ConversationRules.writingInParts(others) { people, first in
                try await database.write { db in
                    if first {
                        try db.execute(
                            sql: "INSERT INTO conversations (id, title, direct_key, created_at, members) VALUES (?, ?, NULL, ?, '')",
                            arguments: [id.rawValue, title, now])
                    }
                    return try Self.start(id, by: me, with: others, adding: people, first: first, at: now, db)
                }
            }
        }
        return try await summary(of: id, for: me).started(notInviting: notInvited)
    }

    public func invitations() async throws -> [Invitation] {
        let me = try await caller.id()
        let rows = try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.columns), m.invited_by, m.invited_at FROM conversation_members m JOIN conversations c ON c.id = m.conversation_id
                    WHERE m.user_id = ? AND m.state = 'invited'
                    """, arguments: [me.rawValue]
            ).map { row in
                (try Self.conversation(row), UserID(try row.decode(String.self, atIndex: 5)), try row.decode(Date.self, atIndex: 6))
            }
        }
        return try await builder.invitations(to: rows, for: me)
    }

    public func accept(_ conversationID: ConversationID) async throws -> ConversationSummary {
        let me = try await caller.id()
        try await database.write { db in try Self.accept(conversationID, by: me, db) }
        membersChanged(conversationID)
        return try await summary(of: conversationID, for: me)
    }

    public func decline(_ conversationID: ConversationID) async throws {
        let me = try await caller.id()
        try await database.write { db in try Self.decline(conversationID, by: me, db) }
    }

    public func leave(_ conversationID: ConversationID) async throws {
        let me = try await caller.id()
        try budget.spend(.conversation, by: me)
        try await database.write { db in try Self.leave(conversationID, by: me, db) }
        membersChanged(conversationID)
    }

    public func block(_ userID: UserID) async throws {
        let me = try await caller.id()
        try await builder.checkBlock(by: me, of: userID)
        try budget.spend(.lookup, by: me)
        let left = try await database.write { db -> ConversationID? in
            try db.execute(
                sql: "INSERT OR IGNORE INTO conversation_blocks (user_id, blocked_id) VALUES (?, ?)", arguments: [me.rawValue, userID.rawValue])
            try db.execute(sql: "DELETE FROM conversation_accepts WHERE user_id = ? AND accepted_id = ?", arguments: [me.rawValue, userID.rawValue])
            for invitation in try String.fetchAll(
                db,
                sql: """
                    SELECT conversation_id FROM conversation_members WHERE user_id = ? AND state = 'invited' AND invited_by = ?
                    """, arguments: [me.rawValue, userID.rawValue])
            {
                try Self.decline(ConversationID(invitation), by: me, db)
            }
            let key = [me.rawValue, userID.rawValue].sorted().joined(separator: "|")
            guard
                let direct = try String.fetchOne(
                    db,
                    sql: """
                        SELECT c.id FROM conversations c JOIN conversation_members m ON m.conversation_id = c.id AND m.user_id = ? AND m.state = 'member'
                        WHERE c.direct_key = ?
                        """, arguments: [me.rawValue, key])
            else { return nil }
            try Self.leave(ConversationID(direct), by: me, db)
            return ConversationID(direct)
        }
        if let left { membersChanged(left) }
    }

    public func unblock(_ userID: UserID) async throws {
        let me = try await caller.id()
        try budget.spend(.lookup, by: me)
        try await database.write { db in
            try db.execute(sql: "DELETE FROM conversation_blocks WHERE user_id = ? AND blocked_id = ?", arguments: [me.rawValue, userID.rawValue])
        }
    }

    public func blockedUsers() async throws -> [UserID] {
        let me = try await caller.id()
        return try await database.read { db in
            try String.fetchAll(db, sql: "SELECT blocked_id FROM conversation_blocks WHERE user_id = ? ORDER BY blocked_id", arguments: [me.rawValue])
                .map(UserID.init(rawValue:))
        }
    }

    public func changes() async throws -> AsyncStream<Void> {
        _ = try await caller.id()
        return database.changes.subscribe()
    }

    /// `me` comes to an existing one-to-one by starting it: nothing if a member already; its
    /// invitation accepted if invited; joined again if they had left it.
    private func enter(_ id: ConversationID, me: UserID, accepting other: UserID) async throws -> ConversationSummary {
        let joined = try await database.write { db -> Bool in
            try db.execute(
                sql: "INSERT OR IGNORE INTO conversation_accepts (user_id, accepted_id) VALUES (?, ?)", arguments: [me.rawValue, other.rawValue])
            switch try Self.state(of: me, in: id, db) {
            case "member": return false
            case "invited": try Self.accept(id, by: me, db)
            default: try Self.join(id, me, db)
            }
            return true
        }
        if joined { membersChanged(id) }
        return try await summary(of: id, for: me)
    }

    /// Puts `people`, some of the `others` named in the new conversation `id` (with the `first`
    /// of them, the starter too), in it, each as `ConversationRules.entry` says, and records who sees
    /// what; the starter accepts each of them from now on. Set-based, so that the writer's time
    /// follows the statements, not the people: one read of what the rule needs for everyone,
    /// then each kind of row written at once over a JSON array of ids.
    /// - Returns: who was not invited, and why.
    private static func start(
        _ id: ConversationID, by starter: UserID, with others: [UserID], adding people: [UserID], first: Bool,
        at now: Date, _ db: Database
    ) throws -> [NotInvited] {
        let others = others.filter { $0 != starter }, named = try JSONIDs.encode(others), adding = try JSONIDs.encode(people.filter { $0 != starter })
        try db.execute(
            sql: "INSERT OR IGNORE INTO conversation_accepts (user_id, accepted_id) SELECT ?, value FROM json_each(?)",
            arguments: [starter.rawValue, adding])
        var members = first ? [starter] : [], invited: [UserID] = [], expiring: [(invitee: UserID, conversation: String)] = [],
            notInvited: [NotInvited] = []
        // The people outer (`JSONIDs`); each one's accepts of the others named are a range of their own rows.
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT person, accepts_starter, accepts_named, blocked, invited_by_starter, pending,
                       CASE WHEN pending >= :max THEN (
                           SELECT m.conversation_id FROM conversation_members m
                           WHERE m.user_id = person AND m.state = 'invited'
                             AND NOT EXISTS (SELECT 1 FROM conversation_accepts WHERE user_id = person AND accepted_id = m.invited_by)
                           ORDER BY m.invited_at, m.conversation_id LIMIT 1) END
                FROM (SELECT p.value AS person,
                             EXISTS (SELECT 1 FROM conversation_accepts WHERE user_id = p.value AND accepted_id = :starter) AS accepts_starter,
                             (SELECT count(*) FROM conversation_accepts a WHERE a.user_id = p.value
                                AND a.accepted_id IN (SELECT value FROM json_each(:named))) AS accepts_named,
                             EXISTS (SELECT 1 FROM conversation_blocks WHERE user_id = p.value AND blocked_id = :starter) AS blocked,
                             EXISTS (SELECT 1 FROM conversation_members WHERE user_id = p.value AND state = 'invited' AND invited_by = :starter)
                                AS invited_by_starter,
                             (SELECT count(*) FROM conversation_members WHERE user_id = p.value AND state = 'invited') AS pending
                      FROM json_each(:adding) p)
                """, arguments: ["max": ConversationRules.maxPendingInvitations, "starter": starter.rawValue, "named": named, "adding": adding])
        while let row = try rows.next() {
            let person = UserID(row[0] as String), oldestFromStranger: String? = row[6]
            switch ConversationRules.entry(
                acceptsStarter: row[1], acceptsEveryoneNamed: row[2] as Int >= others.count - 1, blocked: row[3],
                invitedByStarter: row[4], pending: row[5], strangerInvitationWaits: oldestFromStranger != nil)
            {
            case .member: members.append(person)
            case .invited(let makingRoom):
                invited.append(person)
                if makingRoom, let oldestFromStranger { expiring.append((person, oldestFromStranger)) }
            case .notInvited(let reason): notInvited.append(NotInvited(userID: person, reason: reason))
            case .none: break
            }
        }
        if !expiring.isEmpty {
            let pairs = String(decoding: try JSONEncoder().encode(expiring.map { [$0.invitee.rawValue, $0.conversation] }), as: UTF8.self)
            try db.execute(
                sql: """
                    DELETE FROM conversation_members WHERE state = 'invited'
                      AND (user_id, conversation_id) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))
                    """, arguments: [pairs])
        }
        try db.execute(
            sql: "INSERT INTO conversation_members (user_id, conversation_id) SELECT value, ? FROM json_each(?)",
            arguments: [id.rawValue, try JSONIDs.encode(members)])
        try db.execute(
            sql: """
                INSERT INTO conversation_members (user_id, conversation_id, state, invited_by, invited_at) SELECT value, ?, 'invited', ?, ? FROM json_each(?)
                """, arguments: [id.rawValue, starter.rawValue, now, try JSONIDs.encode(invited)])
        let everyone = try updateMembers(id, db)
        try SQLChangeLog.record(each: expiring.map { (.conversationLeft(ConversationID($0.conversation), by: $0.invitee), $0.invitee) }, db)
        // Those written before learn of the members a later part added.
        if !members.isEmpty {
            try SQLChangeLog.record(
                .conversationAdded(id), audience: ConversationRules.addedAudience(first: first, members: members, everyone: everyone), db)
        }
        try SQLChangeLog.record(each: invited.map { (.conversationInvited(id, invitee: $0), $0) }, db)
        return notInvited
    }

    private static func accept(_ id: ConversationID, by me: UserID, _ db: Database) throws {
        if try state(of: me, in: id, db) == "member" { return }
        guard
            let inviter = try String.fetchOne(
                db,
                sql: """
                    SELECT invited_by FROM conversation_members WHERE conversation_id = ? AND user_id = ? AND state = 'invited'
                    """, arguments: [id.rawValue, me.rawValue])
        else { throw ConversationRules.noInvitation(id) }
        try db.execute(sql: "INSERT OR IGNORE INTO conversation_accepts (user_id, accepted_id) VALUES (?, ?)", arguments: [me.rawValue, inviter])
        try db.execute(sql: "DELETE FROM conversation_members WHERE conversation_id = ? AND user_id = ?", arguments: [id.rawValue, me.rawValue])
        try join(id, me, db)
    }

    private static func join(_ id: ConversationID, _ me: UserID, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO conversation_members (user_id, conversation_id) VALUES (?, ?)", arguments: [me.rawValue, id.rawValue])
        try SQLChangeLog.record(.conversationAdded(id, joining: me), audience: try updateMembers(id, db), db)
    }

    private static func decline(_ id: ConversationID, by me: UserID, _ db: Database) throws {
        switch try state(of: me, in: id, db) {
        case "member": throw ConversationRules.alreadyMember(id)
        case "invited":
            try db.execute(sql: "DELETE FROM conversation_members WHERE conversation_id = ? AND user_id = ?", arguments: [id.rawValue, me.rawValue])
            try SQLChangeLog.record(.conversationLeft(id, by: me), audience: [me], db)
        default:
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM conversations WHERE id = ?)", arguments: [id.rawValue]) == true else {
                throw AppError.noConversation(id)
            }
        }
    }

    /// `member`, `invited`, or `nil` for someone not in `id`.
    private static func state(of user: UserID, in id: ConversationID, _ db: Database) throws -> String? {
        try String.fetchOne(
            db, sql: "SELECT state FROM conversation_members WHERE conversation_id = ? AND user_id = ?", arguments: [id.rawValue, user.rawValue])
    }

    private static func leave(_ id: ConversationID, by me: UserID, _ db: Database) throws {
        try db.execute(
            sql: "DELETE FROM conversation_members WHERE conversation_id = ? AND user_id = ? AND state = 'member'",
            arguments: [id.rawValue, me.rawValue])
        guard db.changesCount > 0 else {
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM conversations WHERE id = ?)", arguments: [id.rawValue]) == true else {
                throw AppError.noConversation(id)
            }
            return
        }
        try SQLChangeLog.record(.conversationLeft(id, by: me), audience: [me] + (try updateMembers(id, db)), db)
    }

    /// Writes the members of `id` now on its row, and returns them.
    @discardableResult
    private static func updateMembers(_ id: ConversationID, _ db: Database) throws -> [UserID] {
        let members = try String.fetchAll(
            db, sql: "SELECT user_id FROM conversation_members WHERE conversation_id = ? AND state = 'member'",
            arguments: [id.rawValue])
        try db.execute(sql: "UPDATE conversations SET members = ? WHERE id = ?", arguments: [members.joined(separator: ","), id.rawValue])
        return members.map(UserID.init(rawValue:))
    }

    private func summary(of id: ConversationID, for reader: UserID) async throws -> ConversationSummary {
        let conversation = try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM conversations c WHERE c.id = ?", arguments: [id.rawValue]).map(Self.conversation)
        }
        guard let conversation else { throw AppError.noConversation(id) }
        return try await builder.summary(of: conversation, for: reader)
    }

    /// The columns `conversation(_:)` reads, for a `SELECT` over `conversations c`.
    private static let columns = "c.id, c.title, c.created_at, c.members, c.direct_key"

    /// The conversations a reader is a member of (argument: the reader), read through a covering
    /// index; `QueryPlanTests` (Tests/ContractTests) checks SQLite's plan of it.
    static let list = """
        SELECT \(columns)
        FROM conversation_members mine JOIN conversations c INDEXED BY conversations_for_list ON c.id = mine.conversation_id
        WHERE mine.user_id = ? AND mine.state = 'member'
        """

    /// A conversation from a row of `columns` (positional: much faster than by name).
    /// - Throws: GRDB's `RowDecodingError` for a damaged row (a NULL or a wrong type).
    private static func conversation(_ row: Row) throws -> Conversation {
        let members = try row.decode(String.self, atIndex: 3).utf8.split(separator: UInt8(ascii: ",")).map {
            UserID(String(decoding: $0, as: UTF8.self))
        }
        let pair = try row.decode(String?.self, atIndex: 4).map { $0.split(separator: "|").map { UserID(String($0)) } }
        return Conversation(
            id: ConversationID(try row.decode(String.self, atIndex: 0)), title: try row.decode(atIndex: 1), memberIDs: members,
            createdAt: try row.decode(atIndex: 2), pair: pair)
    }
}
