import ConversationList
import Foundation
import Kernel
import PostgresNIO
import PostgresStore

/// The conversations of a PostgreSQL database (`ConversationListStore`): each operation one
/// transaction with its events, taken in the store's order (so that two instances' changes to
/// one conversation come one after the other, as two processes' do on SQLite), deciding
/// nothing `ConversationRules` decides.
public struct PostgresConversationListStore: ConversationListStore {
    private typealias Transaction = PGDatabase.Transaction

    private let database: PGDatabase

    /// The store of an open database.
    public init(database: PGDatabase) { self.database = database }

    public func conversations(of member: UserID) async throws -> [Conversation] {
        try await database.query(
            """
            SELECT \(unescaped: Self.columns) FROM conversation_members mine JOIN conversations c ON c.id = mine.conversation_id
            WHERE mine.user_id = \(member.rawValue) AND mine.state = 'member'
            """
        ).map(Self.conversation)
    }

    public func conversation(_ id: ConversationID) async throws -> Conversation? {
        try await database.query("SELECT \(unescaped: Self.columns) FROM conversations c WHERE c.id = \(id.rawValue)").first.map(Self.conversation)
    }

    public func direct(key: String) async throws -> ConversationID? {
        try await database.query("SELECT id FROM conversations WHERE direct_key = \(key)").first.map { ConversationID(try $0.decode(String.self)) }
    }

    public func startDirect(_ candidate: ConversationID, key: String, by starter: UserID, with other: UserID, at now: Date) async throws
        -> (id: ConversationID, notInvited: [NotInvited])
    {
        let at = now.timeIntervalSince1970
        return try await database.write { tx in
            let inserted = try await tx.query(
                """
                INSERT INTO conversations (id, title, direct_key, created_at, members) VALUES (\(candidate.rawValue), NULL, \(key), \(at), '')
                ON CONFLICT DO NOTHING RETURNING id
                """)
            guard !inserted.isEmpty else {
                // Another instance made it first.
                let first = try await tx.query("SELECT id FROM conversations WHERE direct_key = \(key)").first?.decode(String.self)
                return (first.map { ConversationID($0) } ?? candidate, [])
            }
            return (candidate, try await Self.start(candidate, by: starter, with: [other], adding: [other], first: true, at: at, tx))
        }
    }

    public func startGroup(
        _ id: ConversationID, title: String, by starter: UserID, with others: [UserID], adding people: [UserID], first: Bool, at now: Date
    )
        async throws -> [NotInvited]
    {
        let at = now.timeIntervalSince1970
        return try await database.write { tx in
            if first {
                try await tx.query(
                    "INSERT INTO conversations (id, title, direct_key, created_at, members) VALUES (\(id.rawValue), \(title), NULL, \(at), '')")
            }
            return try await Self.start(id, by: starter, with: others, adding: people, first: first, at: at, tx)
        }
    }

    public func takingTurns<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await database.takingTurns(work)
    }

    public func invitations(of invitee: UserID) async throws -> [(conversation: Conversation, inviter: UserID, at: Date)] {
        try await database.query(
            """
            SELECT \(unescaped: Self.columns), m.invited_by, m.invited_at FROM conversation_members m JOIN conversations c ON c.id = m.conversation_id
            WHERE m.user_id = \(invitee.rawValue) AND m.state = 'invited'
            """
        ).map { row in
            let cells = row.makeRandomAccess()
            return (
                try Self.conversation(row), UserID(try cells[5].decode(String.self)), Date(timeIntervalSince1970: try cells[6].decode(Double.self))
            )
        }
    }

    public func enter(_ id: ConversationID, by person: UserID, accepting other: UserID) async throws -> Bool {
        try await database.write { tx -> Bool in
            try await tx.query(
                "INSERT INTO conversation_accepts (user_id, accepted_id) VALUES (\(person.rawValue), \(other.rawValue)) ON CONFLICT DO NOTHING")
            switch ConversationRules.entering(try await Self.place(of: person, in: id, tx)) {
            case .stays: return false
            case .accepts: try await Self.accept(id, by: person, tx)
            case .joins: try await Self.join(id, person, tx)
            }
            return true
        }
    }

    public func accept(_ id: ConversationID, by person: UserID) async throws {
        try await database.write { tx in try await Self.accept(id, by: person, tx) }
    }

    public func decline(_ id: ConversationID, by person: UserID) async throws {
        try await database.write { tx in try await Self.decline(id, by: person, tx) }
    }

    public func leave(_ id: ConversationID, by person: UserID) async throws {
        try await database.write { tx in try await Self.leave(id, by: person, tx) }
    }

    public func block(_ other: UserID, by person: UserID) async throws -> ConversationID? {
        let (me, key) = (person.rawValue, ConversationRules.directKey(person, other))
        return try await database.write { tx -> ConversationID? in
            try await tx.query("INSERT INTO conversation_blocks (user_id, blocked_id) VALUES (\(me), \(other.rawValue)) ON CONFLICT DO NOTHING")
            try await tx.query("DELETE FROM conversation_accepts WHERE user_id = \(me) AND accepted_id = \(other.rawValue)")
            for row in try await tx.query(
                "SELECT conversation_id FROM conversation_members WHERE user_id = \(me) AND state = 'invited' AND invited_by = \(other.rawValue)")
            {
                try await Self.decline(ConversationID(try row.decode(String.self)), by: person, tx)
            }
            guard
                let direct = try await tx.query(
                    """
                    SELECT c.id FROM conversations c
                    JOIN conversation_members m ON m.conversation_id = c.id AND m.user_id = \(me) AND m.state = 'member'
                    WHERE c.direct_key = \(key)
                    """
                ).first?.decode(String.self)
            else { return nil }
            try await Self.leave(ConversationID(direct), by: person, tx)
            return ConversationID(direct)
        }
    }

    public func unblock(_ other: UserID, by person: UserID) async throws {
        try await database.query("DELETE FROM conversation_blocks WHERE user_id = \(person.rawValue) AND blocked_id = \(other.rawValue)")
    }

    public func blocked(by person: UserID) async throws -> [UserID] {
        try await database.query("SELECT blocked_id FROM conversation_blocks WHERE user_id = \(person.rawValue) ORDER BY blocked_id")
            .map { UserID(try $0.decode(String.self)) }
    }

    public func changes(for member: UserID) async throws -> AsyncStream<Void> { database.changes() }

    /// Puts `people`, some of the `others` named in the new conversation `id` (with the `first`
    /// of them, the starter too), in it, each as `Entrants` decides from the facts read, and
    /// records its events; the starter accepts each of them from now on. Set-based, as on SQLite: one read
    /// of what the rule needs for everyone, then each kind of row written at once from an array
    /// of ids.
    /// - Returns: who was not invited, and why.
    private static func start(
        _ id: ConversationID, by starter: UserID, with others: [UserID], adding people: [UserID], first: Bool,
        at now: Double, _ tx: Transaction
    ) async throws -> [NotInvited] {
        let named = others.filter { $0 != starter }.map(\.rawValue), adding = people.filter { $0 != starter }.map(\.rawValue)
        try await tx.query(
            """
            INSERT INTO conversation_accepts (user_id, accepted_id) SELECT \(starter.rawValue), u FROM unnest(\(adding)::text[]) u ON CONFLICT DO NOTHING
            """)
        let rows = try await tx.query(
            """
            SELECT person, accepts_starter, accepts_named, blocked, invited_by_starter, pending,
                   CASE WHEN pending >= \(ConversationRules.maxPendingInvitations) THEN (
                       SELECT m.conversation_id FROM conversation_members m
                       WHERE m.user_id = person AND m.state = 'invited'
                         AND NOT EXISTS (SELECT 1 FROM conversation_accepts WHERE user_id = person AND accepted_id = m.invited_by)
                       ORDER BY m.invited_at, m.conversation_id LIMIT 1) END
            FROM (SELECT p AS person,
                         EXISTS (SELECT 1 FROM conversation_accepts WHERE user_id = p AND accepted_id = \(starter.rawValue)) AS accepts_starter,
                         (SELECT count(*) FROM conversation_accepts a WHERE a.user_id = p AND a.accepted_id = ANY (\(named)::text[])) AS accepts_named,
                         EXISTS (SELECT 1 FROM conversation_blocks WHERE user_id = p AND blocked_id = \(starter.rawValue)) AS blocked,
                         EXISTS (SELECT 1 FROM conversation_members WHERE user_id = p AND state = 'invited' AND invited_by = \(starter.rawValue))
                            AS invited_by_starter,
                         (SELECT count(*) FROM conversation_members WHERE user_id = p AND state = 'invited') AS pending
                  FROM unnest(\(adding)::text[]) p) people
            """)
        let facts = try rows.map { row in
            let (person, acceptsStarter, acceptsNamed, blocked, invitedByStarter, pending, oldestFromStranger) = try row.decode(
                (String, Bool, Int64, Bool, Bool, Int64, String?).self)
            return EntrantFacts(
                person: UserID(person), acceptsStarter: acceptsStarter, acceptsNamed: Int(acceptsNamed), blockedStarter: blocked,
                invitedByStarter: invitedByStarter, pending: Int(pending), oldestFromStranger: oldestFromStranger.map { ConversationID($0) })
        }
        let entrants = Entrants(facts, starter: starter, othersNamed: named.count, first: first)
        if !entrants.expiring.isEmpty {
            let (invitees, conversations) = (entrants.expiring.map(\.invitee.rawValue), entrants.expiring.map(\.conversation.rawValue))
            try await tx.query(
                """
                DELETE FROM conversation_members m USING unnest(\(invitees)::text[], \(conversations)::text[]) e(u, c)
                WHERE m.state = 'invited' AND m.user_id = e.u AND m.conversation_id = e.c
                """)
        }
        try await tx.query(
            """
            INSERT INTO conversation_members (user_id, conversation_id) SELECT u, \(id.rawValue) FROM unnest(\(entrants.members.map(\.rawValue))::text[]) u
            """)
        try await tx.query(
            """
            INSERT INTO conversation_members (user_id, conversation_id, state, invited_by, invited_at)
            SELECT u, \(id.rawValue), 'invited', \(starter.rawValue), \(now) FROM unnest(\(entrants.invited.map(\.rawValue))::text[]) u
            """)
        let events = entrants.events(in: id, everyone: try await updateMembers(id, tx))
        try await PostgresChangeLog.record(each: events.expired, tx)
        if let added = events.added { try await PostgresChangeLog.record(added.change, audience: added.audience, tx) }
        try await PostgresChangeLog.record(each: events.invitations, tx)
        return entrants.notInvited
    }

    private static func accept(_ id: ConversationID, by me: UserID, _ tx: Transaction) async throws {
        guard try ConversationRules.accepting(try await place(of: me, in: id, tx), in: id) else { return }
        try await tx.query(
            """
            INSERT INTO conversation_accepts (user_id, accepted_id)
            SELECT user_id, invited_by FROM conversation_members WHERE conversation_id = \(id.rawValue) AND user_id = \(me.rawValue)
            ON CONFLICT DO NOTHING
            """)
        try await tx.query("DELETE FROM conversation_members WHERE conversation_id = \(id.rawValue) AND user_id = \(me.rawValue)")
        try await join(id, me, tx)
    }

    private static func join(_ id: ConversationID, _ me: UserID, _ tx: Transaction) async throws {
        try await tx.query("INSERT INTO conversation_members (user_id, conversation_id) VALUES (\(me.rawValue), \(id.rawValue))")
        try await PostgresChangeLog.record(.conversationAdded(id, joining: me), audience: try await updateMembers(id, tx), tx)
    }

    private static func decline(_ id: ConversationID, by me: UserID, _ tx: Transaction) async throws {
        guard try ConversationRules.declining(try await place(of: me, in: id, tx), in: id, exists: try await exists(id, tx)) else { return }
        try await tx.query("DELETE FROM conversation_members WHERE conversation_id = \(id.rawValue) AND user_id = \(me.rawValue)")
        try await PostgresChangeLog.record(.conversationLeft(id, by: me), audience: [me], tx)
    }

    private static func leave(_ id: ConversationID, by me: UserID, _ tx: Transaction) async throws {
        let left = try await tx.query(
            """
            DELETE FROM conversation_members WHERE conversation_id = \(id.rawValue) AND user_id = \(me.rawValue) AND state = 'member' RETURNING user_id
            """)
        guard try ConversationRules.leaving(wasMember: !left.isEmpty, in: id, exists: try await exists(id, tx)) else { return }
        try await PostgresChangeLog.record(
            .conversationLeft(id, by: me), audience: ConversationRules.leftAudience(me, members: try await updateMembers(id, tx)), tx)
    }

    /// Where `user` stands in `id`.
    private static func place(of user: UserID, in id: ConversationID, _ tx: Transaction) async throws -> ConversationRules.Place? {
        try await tx.query("SELECT state FROM conversation_members WHERE conversation_id = \(id.rawValue) AND user_id = \(user.rawValue)")
            .first.flatMap { ConversationRules.Place(rawValue: try $0.decode(String.self)) }
    }

    private static func exists(_ id: ConversationID, _ tx: Transaction) async throws -> Bool {
        try await !tx.query("SELECT 1 FROM conversations WHERE id = \(id.rawValue)").isEmpty
    }

    /// Writes the members of `id` now on its row, and returns them.
    @discardableResult
    private static func updateMembers(_ id: ConversationID, _ tx: Transaction) async throws -> [UserID] {
        let members = try await tx.query(
            """
            SELECT user_id FROM conversation_members WHERE conversation_id = \(id.rawValue) AND state = 'member' ORDER BY user_id
            """
        ).map { try $0.decode(String.self) }
        try await tx.query("UPDATE conversations SET members = \(members.joined(separator: ",")) WHERE id = \(id.rawValue)")
        return members.map(UserID.init(rawValue:))
    }

    /// The columns `conversation(_:)` reads, for a `SELECT` over `conversations c`.
    private static let columns = "c.id, c.title, c.created_at, c.members, c.direct_key"

    /// A conversation from a row whose first columns are `columns`.
    private static func conversation(_ row: PostgresRow) throws -> Conversation {
        let cells = row.makeRandomAccess()
        let members = try cells[3].decode(String.self).split(separator: ",").map { UserID(String($0)) }
        let pair = try cells[4].decode(String?.self).map { $0.split(separator: "|").map { UserID(String($0)) } }
        return Conversation(
            id: ConversationID(try cells[0].decode(String.self)), title: try cells[1].decode(String?.self), memberIDs: members,
            createdAt: Date(timeIntervalSince1970: try cells[2].decode(Double.self)), pair: pair)
    }
}
