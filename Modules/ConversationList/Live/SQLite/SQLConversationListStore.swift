import ConversationList
import Foundation
import GRDB
import Kernel
import SQLStore

/// The conversations of a SQLite database (`ConversationListStore`): each operation one
/// transaction with its events, deciding nothing `ConversationRules` decides. `changes()` ticks
/// on any commit to the file, from any process.
public struct SQLConversationListStore: ConversationListStore {
    private let database: SQLDatabase

    /// The store of an open database.
    public init(database: SQLDatabase) { self.database = database }

    public func conversations(of member: UserID) async throws -> [Conversation] {
        try await database.read { db in
            try Row.fetchCursor(db, sql: Self.list, arguments: [member.rawValue]).map(Self.conversation).reduce(into: []) { $0.append($1) }
        }
    }

    public func conversation(_ id: ConversationID) async throws -> Conversation? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM conversations c WHERE c.id = ?", arguments: [id.rawValue]).map(Self.conversation)
        }
    }

    public func direct(key: String) async throws -> ConversationID? {
        try await database.read { db in try Self.direct(key: key, db) }
    }

    public func startDirect(_ candidate: ConversationID, key: String, by starter: UserID, with other: UserID, at now: Date) async throws
        -> (id: ConversationID, notInvited: [NotInvited])
    {
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO conversations (id, title, direct_key, created_at, members) VALUES (?, NULL, ?, ?, '') ON CONFLICT DO NOTHING",
                arguments: [candidate.rawValue, key, now])
            // Another process made it first.
            guard db.changesCount > 0 else { return (try Self.direct(key: key, db) ?? candidate, []) }
            return (candidate, try Self.start(candidate, by: starter, with: [other], adding: [other], first: true, at: now, db))
        }
    }

    public func startGroup(
        _ id: ConversationID, title: String, by starter: UserID, with others: [UserID], adding people: [UserID], first: Bool, at now: Date
    )
        async throws -> [NotInvited]
    {
        try await database.write { db in
            if first {
                try db.execute(
                    sql: "INSERT INTO conversations (id, title, direct_key, created_at, members) VALUES (?, ?, NULL, ?, '')",
                    arguments: [id.rawValue, title, now])
            }
            return try Self.start(id, by: starter, with: others, adding: people, first: first, at: now, db)
        }
    }

    public func takingTurns<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await database.takingTurns(work)
    }

    public func invitations(of invitee: UserID) async throws -> [(conversation: Conversation, inviter: UserID, at: Date)] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.columns), m.invited_by, m.invited_at FROM conversation_members m JOIN conversations c ON c.id = m.conversation_id
                    WHERE m.user_id = ? AND m.state = 'invited'
                    """, arguments: [invitee.rawValue]
            ).map { row in
                (try Self.conversation(row), UserID(try row.decode(String.self, atIndex: 5)), try row.decode(Date.self, atIndex: 6))
            }
        }
    }

    public func enter(_ id: ConversationID, by person: UserID, accepting other: UserID) async throws -> Bool {
        try await database.write { db -> Bool in
            try db.execute(
                sql: "INSERT OR IGNORE INTO conversation_accepts (user_id, accepted_id) VALUES (?, ?)", arguments: [person.rawValue, other.rawValue])
            switch ConversationRules.entering(try Self.place(of: person, in: id, db)) {
            case .stays: return false
            case .accepts: try Self.accept(id, by: person, db)
            case .joins: try Self.join(id, person, db)
            }
            return true
        }
    }

    public func accept(_ id: ConversationID, by person: UserID) async throws {
        try await database.write { db in try Self.accept(id, by: person, db) }
    }

    public func decline(_ id: ConversationID, by person: UserID) async throws {
        try await database.write { db in try Self.decline(id, by: person, db) }
    }

    public func leave(_ id: ConversationID, by person: UserID) async throws {
        try await database.write { db in try Self.leave(id, by: person, db) }
    }

    public func block(_ other: UserID, by person: UserID) async throws -> ConversationID? {
        let (me, other) = (person.rawValue, other.rawValue)
        return try await database.write { db -> ConversationID? in
            try db.execute(sql: "INSERT OR IGNORE INTO conversation_blocks (user_id, blocked_id) VALUES (?, ?)", arguments: [me, other])
            try db.execute(sql: "DELETE FROM conversation_accepts WHERE user_id = ? AND accepted_id = ?", arguments: [me, other])
            for invitation in try String.fetchAll(
                db, sql: "SELECT conversation_id FROM conversation_members WHERE user_id = ? AND state = 'invited' AND invited_by = ?",
                arguments: [me, other])
            {
                try Self.decline(ConversationID(invitation), by: person, db)
            }
            guard
                let direct = try String.fetchOne(
                    db,
                    sql: """
                        SELECT c.id FROM conversations c JOIN conversation_members m ON m.conversation_id = c.id AND m.user_id = ? AND m.state = 'member'
                        WHERE c.direct_key = ?
                        """, arguments: [me, ConversationRules.directKey(person, UserID(other))])
            else { return nil }
            try Self.leave(ConversationID(direct), by: person, db)
            return ConversationID(direct)
        }
    }

    public func unblock(_ other: UserID, by person: UserID) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM conversation_blocks WHERE user_id = ? AND blocked_id = ?", arguments: [person.rawValue, other.rawValue])
        }
    }

    public func blocked(by person: UserID) async throws -> [UserID] {
        try await database.read { db in
            try String.fetchAll(
                db, sql: "SELECT blocked_id FROM conversation_blocks WHERE user_id = ? ORDER BY blocked_id", arguments: [person.rawValue]
            )
            .map(UserID.init(rawValue:))
        }
    }

    public func changes(for member: UserID) async throws -> AsyncStream<Void> { database.changes.subscribe() }

    private static func direct(key: String, _ db: Database) throws -> ConversationID? {
        try String.fetchOne(db, sql: "SELECT id FROM conversations WHERE direct_key = ?", arguments: [key]).map { ConversationID($0) }
    }

    /// Puts `people`, some of the `others` named in the new conversation `id` (with the `first`
    /// of them, the starter too), in it, each as `Entrants` decides from the facts read, and
    /// records its events; the starter accepts each of them from now on. Set-based, so that the writer's time
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
        var facts: [EntrantFacts] = []
        while let row = try rows.next() {
            facts.append(
                EntrantFacts(
                    person: UserID(row[0] as String), acceptsStarter: row[1], acceptsNamed: row[2], blockedStarter: row[3], invitedByStarter: row[4],
                    pending: row[5], oldestFromStranger: (row[6] as String?).map { ConversationID($0) }))
        }
        let entrants = Entrants(facts, starter: starter, othersNamed: others.count, first: first)
        if !entrants.expiring.isEmpty {
            let pairs = String(
                decoding: try JSONEncoder().encode(entrants.expiring.map { [$0.invitee.rawValue, $0.conversation.rawValue] }), as: UTF8.self)
            try db.execute(
                sql: """
                    DELETE FROM conversation_members WHERE state = 'invited'
                      AND (user_id, conversation_id) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))
                    """, arguments: [pairs])
        }
        try db.execute(
            sql: "INSERT INTO conversation_members (user_id, conversation_id) SELECT value, ? FROM json_each(?)",
            arguments: [id.rawValue, try JSONIDs.encode(entrants.members)])
        try db.execute(
            sql: """
                INSERT INTO conversation_members (user_id, conversation_id, state, invited_by, invited_at) SELECT value, ?, 'invited', ?, ? FROM json_each(?)
                """, arguments: [id.rawValue, starter.rawValue, now, try JSONIDs.encode(entrants.invited)])
        let events = entrants.events(in: id, everyone: try updateMembers(id, db))
        try SQLChangeLog.record(each: events.expired, db)
        if let added = events.added { try SQLChangeLog.record(added.change, audience: added.audience, db) }
        try SQLChangeLog.record(each: events.invitations, db)
        return entrants.notInvited
    }

    private static func accept(_ id: ConversationID, by me: UserID, _ db: Database) throws {
        guard try ConversationRules.accepting(try place(of: me, in: id, db), in: id) else { return }
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO conversation_accepts (user_id, accepted_id)
                SELECT user_id, invited_by FROM conversation_members WHERE conversation_id = ? AND user_id = ?
                """, arguments: [id.rawValue, me.rawValue])
        try db.execute(sql: "DELETE FROM conversation_members WHERE conversation_id = ? AND user_id = ?", arguments: [id.rawValue, me.rawValue])
        try join(id, me, db)
    }

    private static func join(_ id: ConversationID, _ me: UserID, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO conversation_members (user_id, conversation_id) VALUES (?, ?)", arguments: [me.rawValue, id.rawValue])
        try SQLChangeLog.record(.conversationAdded(id, joining: me), audience: try updateMembers(id, db), db)
    }

    private static func decline(_ id: ConversationID, by me: UserID, _ db: Database) throws {
        guard try ConversationRules.declining(try place(of: me, in: id, db), in: id, exists: try exists(id, db)) else { return }
        try db.execute(sql: "DELETE FROM conversation_members WHERE conversation_id = ? AND user_id = ?", arguments: [id.rawValue, me.rawValue])
        try SQLChangeLog.record(.conversationLeft(id, by: me), audience: [me], db)
    }

    private static func leave(_ id: ConversationID, by me: UserID, _ db: Database) throws {
        try db.execute(
            sql: "DELETE FROM conversation_members WHERE conversation_id = ? AND user_id = ? AND state = 'member'",
            arguments: [id.rawValue, me.rawValue])
        guard try ConversationRules.leaving(wasMember: db.changesCount > 0, in: id, exists: try exists(id, db)) else { return }
        try SQLChangeLog.record(.conversationLeft(id, by: me), audience: ConversationRules.leftAudience(me, members: try updateMembers(id, db)), db)
    }

    /// Where `user` stands in `id`.
    private static func place(of user: UserID, in id: ConversationID, _ db: Database) throws -> ConversationRules.Place? {
        try String.fetchOne(
            db, sql: "SELECT state FROM conversation_members WHERE conversation_id = ? AND user_id = ?", arguments: [id.rawValue, user.rawValue]
        ).flatMap(ConversationRules.Place.init(rawValue:))
    }

    private static func exists(_ id: ConversationID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM conversations WHERE id = ?)", arguments: [id.rawValue]) == true
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
