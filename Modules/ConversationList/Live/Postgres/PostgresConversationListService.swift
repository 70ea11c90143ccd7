import ConversationList
import Foundation
import Kernel
import PostgresNIO
import PostgresStore

/// One caller's view of the conversations in a PostgreSQL database, following
/// `ConversationRules` as the SQLite service does: each change of who is in a conversation is
/// one transaction with its events, taken in the store's order (so that two instances' changes
/// to one conversation come one after the other, as two processes' do on SQLite).
public struct PostgresConversationListService: ConversationListService {
    private typealias Transaction = PGDatabase.Transaction

    private let database: PGDatabase
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
        database: PGDatabase, builder: SummaryBuilder, caller: Caller, clock: any WallClock = SystemWallClock(),
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
        let conversations = try await database.query(
            """
            SELECT \(unescaped: Self.columns) FROM conversation_members mine JOIN conversations c ON c.id = mine.conversation_id
            WHERE mine.user_id = \(me.rawValue) AND mine.state = 'member'
            """
        ).map(Self.conversation)
        return try await builder.summaries(of: conversations, for: me)
    }

    public func startDirect(with userID: UserID) async throws -> ConversationSummary {
        let me = try await caller.id()
        try await builder.checkDirect(from: me, with: userID)
        let key = [me.rawValue, userID.rawValue].sorted().joined(separator: "|")
        if let existing = try await database.query("SELECT id FROM conversations WHERE direct_key = \(key)").first?.decode(String.self) {
            return try await enter(ConversationID(existing), me: me, accepting: userID)
        }
        try budget.spend(.conversation, by: me)
        let candidate = ConversationID.random(), now = clock.now().timeIntervalSince1970
        let (id, notInvited) = try await database.write { tx -> (String, [NotInvited]) in
            let inserted = try await tx.query(
                """
                INSERT INTO conversations (id, title, direct_key, created_at, members) VALUES (\(candidate.rawValue), NULL, \(key), \(now), '')
                ON CONFLICT DO NOTHING RETURNING id
                """)
            guard !inserted.isEmpty else {
                // Another instance made it first.
                return (
                    try await tx.query("SELECT id FROM conversations WHERE direct_key = \(key)").first?.decode(String.self) ?? candidate.rawValue, []
                )
            }
            return (candidate.rawValue, try await Self.start(candidate, by: me, with: [userID], adding: [userID], first: true, at: now, tx))
        }
        guard id == candidate.rawValue else { return try await enter(ConversationID(id), me: me, accepting: userID) }
        return try await summary(of: candidate, for: me).started(notInviting: notInvited)
    }

    public func createGroup(title: String, memberIDs: [UserID]) async throws -> ConversationSummary {
        let me = try await caller.id()
        let (title, members) = try await builder.checkGroup(title: title, creator: me, adding: memberIDs) { others in
            try budget.spend(.conversation, by: me, cost: ConversationRules.conversationCost(naming: others))
        }
        let id = ConversationID.random(), now = clock.now().timeIntervalSince1970, others = Array(members.dropFirst())
        let notInvited = try await database.takingTurns {
            try await ConversationRules.writingInParts(others) { people, first in
                try await database.write { tx in
                    if first {
                        try await tx.query(
                            "INSERT INTO conversations (id, title, direct_key, created_at, members) VALUES (\(id.rawValue), \(title), NULL, \(now), '')"
                        )
                    }
                    return try await Self.start(id, by: me, with: others, adding: people, first: first, at: now, tx)
                }
            }
        }
        return try await summary(of: id, for: me).started(notInviting: notInvited)
    }

    public func invitations() async throws -> [Invitation] {
        let me = try await caller.id()
        let rows = try await database.query(
            """
            SELECT \(unescaped: Self.columns), m.invited_by, m.invited_at FROM conversation_members m JOIN conversations c ON c.id = m.conversation_id
            WHERE m.user_id = \(me.rawValue) AND m.state = 'invited'
            """
        ).map { row in
            let cells = row.makeRandomAccess()
            return (
                try Self.conversation(row), UserID(try cells[5].decode(String.self)), Date(timeIntervalSince1970: try cells[6].decode(Double.self))
            )
        }
        return try await builder.invitations(to: rows, for: me)
    }

    public func accept(_ conversationID: ConversationID) async throws -> ConversationSummary {
        let me = try await caller.id()
        try await database.write { tx in try await Self.accept(conversationID, by: me, tx) }
        membersChanged(conversationID)
        return try await summary(of: conversationID, for: me)
    }

    public func decline(_ conversationID: ConversationID) async throws {
        let me = try await caller.id()
        try await database.write { tx in try await Self.decline(conversationID, by: me, tx) }
    }

    public func leave(_ conversationID: ConversationID) async throws {
        let me = try await caller.id()
        try budget.spend(.conversation, by: me)
        try await database.write { tx in try await Self.leave(conversationID, by: me, tx) }
        membersChanged(conversationID)
    }

    public func block(_ userID: UserID) async throws {
        let me = try await caller.id()
        try await builder.checkBlock(by: me, of: userID)
        try budget.spend(.lookup, by: me)
        let left = try await database.write { tx -> ConversationID? in
            try await tx.query(
                "INSERT INTO conversation_blocks (user_id, blocked_id) VALUES (\(me.rawValue), \(userID.rawValue)) ON CONFLICT DO NOTHING")
            try await tx.query("DELETE FROM conversation_accepts WHERE user_id = \(me.rawValue) AND accepted_id = \(userID.rawValue)")
            for row in try await tx.query(
                """
                SELECT conversation_id FROM conversation_members WHERE user_id = \(me.rawValue) AND state = 'invited' AND invited_by = \(userID.rawValue)
                """)
            {
                try await Self.decline(ConversationID(try row.decode(String.self)), by: me, tx)
            }
            let key = [me.rawValue, userID.rawValue].sorted().joined(separator: "|")
            guard
                let direct = try await tx.query(
                    """
                    SELECT c.id FROM conversations c
                    JOIN conversation_members m ON m.conversation_id = c.id AND m.user_id = \(me.rawValue) AND m.state = 'member'
                    WHERE c.direct_key = \(key)
                    """
                ).first?.decode(String.self)
            else { return nil }
            try await Self.leave(ConversationID(direct), by: me, tx)
            return ConversationID(direct)
        }
        if let left { membersChanged(left) }
    }

    public func unblock(_ userID: UserID) async throws {
        let me = try await caller.id()
        try budget.spend(.lookup, by: me)
        try await database.query("DELETE FROM conversation_blocks WHERE user_id = \(me.rawValue) AND blocked_id = \(userID.rawValue)")
    }

    public func blockedUsers() async throws -> [UserID] {
        let me = try await caller.id()
        return try await database.query("SELECT blocked_id FROM conversation_blocks WHERE user_id = \(me.rawValue) ORDER BY blocked_id")
            .map { UserID(try $0.decode(String.self)) }
    }

    public func changes() async throws -> AsyncStream<Void> {
        _ = try await caller.id()
        return database.changes()
    }

    /// `me` comes to an existing one-to-one by starting it: nothing if a member already; its
    /// invitation accepted if invited; joined again if they had left it.
    private func enter(_ id: ConversationID, me: UserID, accepting other: UserID) async throws -> ConversationSummary {
        let joined = try await database.write { tx -> Bool in
            try await tx.query(
                "INSERT INTO conversation_accepts (user_id, accepted_id) VALUES (\(me.rawValue), \(other.rawValue)) ON CONFLICT DO NOTHING")
            switch try await Self.state(of: me, in: id, tx) {
            case "member": return false
            case "invited": try await Self.accept(id, by: me, tx)
            default: try await Self.join(id, me, tx)
            }
            return true
        }
        if joined { membersChanged(id) }
        return try await summary(of: id, for: me)
    }

    /// Puts `people`, some of the `others` named in the new conversation `id` (with the `first`
    /// of them, the starter too), in it, each as `ConversationRules.entry` says, and records who
    /// sees what; the starter accepts each of them from now on. Set-based, as on SQLite: one read
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
        var members = first ? [starter] : [], invited: [UserID] = [], expiring: [(invitee: UserID, conversation: String)] = [],
            notInvited: [NotInvited] = []
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
        for row in rows {
            let (person, acceptsStarter, acceptsNamed, blocked, invitedByStarter, pending, oldestFromStranger) = try row.decode(
                (String, Bool, Int64, Bool, Bool, Int64, String?).self)
            switch ConversationRules.entry(
                acceptsStarter: acceptsStarter, acceptsEveryoneNamed: acceptsNamed >= named.count - 1, blocked: blocked,
                invitedByStarter: invitedByStarter, pending: Int(pending), strangerInvitationWaits: oldestFromStranger != nil)
            {
            case .member: members.append(UserID(person))
            case .invited(let makingRoom):
                invited.append(UserID(person))
                if makingRoom, let oldestFromStranger { expiring.append((UserID(person), oldestFromStranger)) }
            case .notInvited(let reason): notInvited.append(NotInvited(userID: UserID(person), reason: reason))
            case .none: break
            }
        }
        if !expiring.isEmpty {
            try await tx.query(
                """
                DELETE FROM conversation_members m USING unnest(\(expiring.map(\.invitee.rawValue))::text[], \(expiring.map(\.conversation))::text[]) e(u, c)
                WHERE m.state = 'invited' AND m.user_id = e.u AND m.conversation_id = e.c
                """)
        }
        try await tx.query(
            """
            INSERT INTO conversation_members (user_id, conversation_id) SELECT u, \(id.rawValue) FROM unnest(\(members.map(\.rawValue))::text[]) u
            """)
        try await tx.query(
            """
            INSERT INTO conversation_members (user_id, conversation_id, state, invited_by, invited_at)
            SELECT u, \(id.rawValue), 'invited', \(starter.rawValue), \(now) FROM unnest(\(invited.map(\.rawValue))::text[]) u
            """)
        let everyone = try await updateMembers(id, tx)
        try await PostgresChangeLog.record(
            each: expiring.map { (.conversationLeft(ConversationID($0.conversation), by: $0.invitee), $0.invitee) }, tx)
        // Those written before learn of the members a later part added.
        if !members.isEmpty {
            try await PostgresChangeLog.record(
                .conversationAdded(id), audience: ConversationRules.addedAudience(first: first, members: members, everyone: everyone), tx)
        }
        try await PostgresChangeLog.record(each: invited.map { (.conversationInvited(id, invitee: $0), $0) }, tx)
        return notInvited
    }

    private static func accept(_ id: ConversationID, by me: UserID, _ tx: Transaction) async throws {
        if try await state(of: me, in: id, tx) == "member" { return }
        guard
            let inviter = try await tx.query(
                """
                SELECT invited_by FROM conversation_members WHERE conversation_id = \(id.rawValue) AND user_id = \(me.rawValue) AND state = 'invited'
                """
            ).first?.decode(String.self)
        else { throw ConversationRules.noInvitation(id) }
        try await tx.query("INSERT INTO conversation_accepts (user_id, accepted_id) VALUES (\(me.rawValue), \(inviter)) ON CONFLICT DO NOTHING")
        try await tx.query("DELETE FROM conversation_members WHERE conversation_id = \(id.rawValue) AND user_id = \(me.rawValue)")
        try await join(id, me, tx)
    }

    private static func join(_ id: ConversationID, _ me: UserID, _ tx: Transaction) async throws {
        try await tx.query("INSERT INTO conversation_members (user_id, conversation_id) VALUES (\(me.rawValue), \(id.rawValue))")
        try await PostgresChangeLog.record(.conversationAdded(id, joining: me), audience: try await updateMembers(id, tx), tx)
    }

    private static func decline(_ id: ConversationID, by me: UserID, _ tx: Transaction) async throws {
        switch try await state(of: me, in: id, tx) {
        case "member": throw ConversationRules.alreadyMember(id)
        case "invited":
            try await tx.query("DELETE FROM conversation_members WHERE conversation_id = \(id.rawValue) AND user_id = \(me.rawValue)")
            try await PostgresChangeLog.record(.conversationLeft(id, by: me), audience: [me], tx)
        default:
            try await requireExists(id, tx)
        }
    }

    /// `member`, `invited`, or `nil` for someone not in `id`.
    private static func state(of user: UserID, in id: ConversationID, _ tx: Transaction) async throws -> String? {
        try await tx.query("SELECT state FROM conversation_members WHERE conversation_id = \(id.rawValue) AND user_id = \(user.rawValue)")
            .first?.decode(String.self)
    }

    private static func requireExists(_ id: ConversationID, _ tx: Transaction) async throws {
        guard try await !tx.query("SELECT 1 FROM conversations WHERE id = \(id.rawValue)").isEmpty else { throw AppError.noConversation(id) }
    }

    private static func leave(_ id: ConversationID, by me: UserID, _ tx: Transaction) async throws {
        let left = try await tx.query(
            """
            DELETE FROM conversation_members WHERE conversation_id = \(id.rawValue) AND user_id = \(me.rawValue) AND state = 'member' RETURNING user_id
            """)
        guard !left.isEmpty else { return try await requireExists(id, tx) }
        try await PostgresChangeLog.record(.conversationLeft(id, by: me), audience: [me] + (try await updateMembers(id, tx)), tx)
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

    private func summary(of id: ConversationID, for reader: UserID) async throws -> ConversationSummary {
        guard let row = try await database.query("SELECT \(unescaped: Self.columns) FROM conversations c WHERE c.id = \(id.rawValue)").first else {
            throw AppError.noConversation(id)
        }
        return try await builder.summary(of: try Self.conversation(row), for: reader)
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
