import Foundation
import Kernel

/// The conversations of the memory backend, with invitations, who accepts whom and who blocked
/// whom, shared by every caller's `InMemoryConversationListService`. Follows
/// `ConversationRules`; each change is recorded in the journal for the people it concerns.
public actor InMemoryConversationStore: ConversationDirectory {
    /// One person's relation to another: `who` accepts, or blocked, `whom`.
    private struct Relation: Hashable {
        let who: UserID
        let whom: UserID
    }

    /// A waiting invitation.
    private struct Pending {
        let inviter: UserID
        let at: Date
    }

    private var conversations: [ConversationID: Conversation]
    private var pending: [ConversationID: [UserID: Pending]] = [:]
    private var accepted: Set<Relation> = []
    private var blocked: Set<Relation> = []
    let builder: SummaryBuilder
    let activity: any ActivitySource
    let conditions: SimulatedConditions
    private let clock: any WallClock
    private let changed = Broadcaster<Set<UserID>>()
    private let journal: (any ChangeJournal)?

    /// Creates the store with seeded conversations (the people of each one-to-one accept each
    /// other) and the list's two ports; changes are recorded in `journal`, when given.
    public init(
        conversations: [Conversation] = [],
        users: any UserDirectory,
        activity: any ActivitySource,
        journal: (any ChangeJournal)? = nil,
        clock: any WallClock = SystemWallClock(),
        conditions: SimulatedConditions = .none
    ) {
        self.journal = journal
        self.conversations = Dictionary(uniqueKeysWithValues: conversations.map { ($0.id, $0) })
        for conversation in conversations where !conversation.isGroup {
            for who in conversation.memberIDs {
                for whom in conversation.memberIDs where whom != who { accepted.insert(Relation(who: who, whom: whom)) }
            }
        }
        builder = SummaryBuilder(users: users, activity: activity)
        self.activity = activity
        self.clock = clock
        self.conditions = conditions
    }

    public func members(of conversationID: ConversationID) async throws -> [UserID]? {
        conversations[conversationID]?.memberIDs
    }

    public func contacts(of user: UserID) async throws -> [UserID] {
        Array(Set(conversations(of: user).flatMap(\.memberIDs)).subtracting([user])).filter { !blocked.contains(Relation(who: user, whom: $0)) }
    }

    public func blocks(involving user: UserID) async throws -> (blocked: Set<UserID>, blockers: Set<UserID>) {
        (Set(blocked.filter { $0.who == user }.map(\.whom)), Set(blocked.filter { $0.whom == user }.map(\.who)))
    }

    func conversations(of member: UserID) -> [Conversation] {
        conversations.values.filter { $0.memberIDs.contains(member) }
    }

    /// `me`'s one-to-one with `other`: found (and joined, or its invitation accepted, if `me` is
    /// not in it), or made (telling whether `other` was not invited, and why).
    func direct(between me: UserID, and other: UserID) async -> (conversation: Conversation, notInvited: [NotInvited]) {
        accepted.insert(Relation(who: me, whom: other))
        if let found = conversations.values.first(where: { !$0.isGroup && Set($0.pair ?? []) == [me, other] }) {
            if found.memberIDs.contains(me) { return (found, []) }
            if pending[found.id]?[me] != nil { return ((try? await accept(found.id, by: me)) ?? found, []) }
            return (await join(me, found.id), [])
        }
        return await start(title: nil, by: me, with: [other])
    }

    /// A new conversation started by `starter` with `others`, each a member or invited as
    /// `ConversationRules.entry` says, and who of them was not invited and why; the starter
    /// accepts each of them from now on.
    func start(title: String?, by starter: UserID, with others: [UserID]) async -> (conversation: Conversation, notInvited: [NotInvited]) {
        let named = others.filter { $0 != starter }
        for other in named { accepted.insert(Relation(who: starter, whom: other)) }
        let facts = named.map { other in
            let waiting = pending.compactMap { id, invitees in invitees[other].map { (id: id, invitation: $0) } }
            return EntrantFacts(
                person: other, acceptsStarter: accepted.contains(Relation(who: other, whom: starter)),
                acceptsNamed: named.filter { $0 != other && accepted.contains(Relation(who: other, whom: $0)) }.count,
                blockedStarter: blocked.contains(Relation(who: other, whom: starter)),
                invitedByStarter: waiting.contains { $0.invitation.inviter == starter }, pending: waiting.count,
                oldestFromStranger: waiting.count < ConversationRules.maxPendingInvitations
                    ? nil
                    : waiting.filter { !accepted.contains(Relation(who: other, whom: $0.invitation.inviter)) }
                        .min { ($0.invitation.at, $0.id) < ($1.invitation.at, $1.id) }?.id)
        }
        let entrants = Entrants(facts, starter: starter, othersNamed: named.count, first: true)
        for (invitee, id) in entrants.expiring { pending[id]?[invitee] = nil }
        let conversation = Conversation(
            id: .random(), title: title, memberIDs: entrants.members, createdAt: clock.now(),
            pair: title == nil ? [starter] + others : nil)
        conversations[conversation.id] = conversation
        for invitee in entrants.invited { pending[conversation.id, default: [:]][invitee] = Pending(inviter: starter, at: clock.now()) }
        let events = entrants.events(in: conversation.id, everyone: entrants.members)
        for (change, invitee) in events.expired { await record(change, for: [invitee]) }
        if let added = events.added { await record(added.change, for: added.audience) }
        for (change, invitee) in events.invitations { await record(change, for: [invitee]) }
        return (conversation, entrants.notInvited)
    }

    /// `user`'s waiting invitations.
    func invitations(of user: UserID) -> [(conversation: Conversation, inviter: UserID, at: Date)] {
        pending.compactMap { id, invitees in
            guard let invitation = invitees[user], let conversation = conversations[id] else { return nil }
            return (conversation, invitation.inviter, invitation.at)
        }
    }

    /// `user` accepts the invitation to `id`: a member, and accepting its inviter from now on
    /// (a member already: the conversation as it is).
    /// - Throws: `ConversationRules.noInvitation` when there is none.
    func accept(_ id: ConversationID, by user: UserID) async throws -> Conversation {
        if let conversation = conversations[id], conversation.memberIDs.contains(user) { return conversation }
        guard let invitation = pending[id]?.removeValue(forKey: user) else { throw ConversationRules.noInvitation(id) }
        accepted.insert(Relation(who: user, whom: invitation.inviter))
        return await join(user, id)
    }

    /// `user` declines the invitation to `id` (none waiting: nothing to do).
    /// - Throws: `.notFound` for an unknown conversation, `ConversationRules.alreadyMember`.
    func decline(_ id: ConversationID, by user: UserID) async throws {
        guard let conversation = conversations[id] else { throw AppError.noConversation(id) }
        guard !conversation.memberIDs.contains(user) else { throw ConversationRules.alreadyMember(id) }
        guard pending[id]?.removeValue(forKey: user) != nil else { return }
        await record(.conversationLeft(id, by: user), for: [user])
    }

    /// `user` leaves `id` (not in it: nothing to do).
    /// - Throws: `.notFound` for an unknown conversation.
    func leave(_ id: ConversationID, by user: UserID) async throws {
        guard let conversation = conversations[id] else { throw AppError.noConversation(id) }
        guard conversation.memberIDs.contains(user) else { return }
        let remaining = conversation.memberIDs.filter { $0 != user }
        conversations[id] = Conversation(
            id: id, title: conversation.title, memberIDs: remaining, createdAt: conversation.createdAt,
            pair: conversation.pair)
        await record(.conversationLeft(id, by: user), for: [user] + remaining)
    }

    /// `user` blocks `other`: declines their invitations, no longer accepts them, and leaves
    /// their one-to-one.
    func block(_ other: UserID, by user: UserID) async {
        blocked.insert(Relation(who: user, whom: other))
        accepted.remove(Relation(who: user, whom: other))
        for (id, invitees) in pending where invitees[user]?.inviter == other { try? await decline(id, by: user) }
        if let direct = conversations.values.first(where: { !$0.isGroup && Set($0.pair ?? []) == [user, other] }), direct.memberIDs.contains(user) {
            try? await leave(direct.id, by: user)
        }
    }

    /// `user` unblocks `other`.
    func unblock(_ other: UserID, by user: UserID) { blocked.remove(Relation(who: user, whom: other)) }

    /// Whom `user` has blocked.
    func blocks(of user: UserID) -> [UserID] { blocked.filter { $0.who == user }.map(\.whom).sorted() }

    /// Ticks with the people whose list or invitations may have changed.
    func changes() -> AsyncStream<Set<UserID>> { changed.subscribe() }

    private func join(_ user: UserID, _ id: ConversationID) async -> Conversation {
        guard let conversation = conversations[id] else { return Conversation(id: id, title: nil, memberIDs: [user], createdAt: clock.now()) }
        let joined = Conversation(
            id: id, title: conversation.title, memberIDs: conversation.memberIDs + [user], createdAt: conversation.createdAt,
            pair: conversation.pair)
        conversations[id] = joined
        await record(.conversationAdded(id, joining: user), for: joined.memberIDs)
        return joined
    }

    private func record(_ change: StoreChange, for audience: [UserID]) async {
        await journal?.record(change, audience: audience)
        changed.send(Set(audience))
    }
}
