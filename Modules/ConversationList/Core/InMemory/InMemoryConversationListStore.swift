import Foundation
import Kernel

/// The conversations of the memory backend, with invitations, who accepts whom and who blocked
/// whom: the `ConversationListStore` of every caller's `StoredConversationListService`, as
/// SQLite's and PostgreSQL's are, each operation after its `SimulatedConditions`. Each change is
/// recorded in the journal for the people it concerns.
public actor InMemoryConversationListStore: ConversationListStore, ConversationDirectory {
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
    /// The list's summaries, over the store's two ports.
    public nonisolated let builder: SummaryBuilder
    private let activity: any ActivitySource
    private let conditions: SimulatedConditions
    private let changed = Broadcaster<Set<UserID>>()
    private let journal: (any ChangeJournal)?

    /// Creates the store with seeded conversations (the people of each one-to-one accept each
    /// other) and the list's two ports; changes are recorded in `journal`, when given.
    public init(
        conversations: [Conversation] = [],
        users: any UserDirectory,
        activity: any ActivitySource,
        journal: (any ChangeJournal)? = nil,
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
        self.conditions = conditions
    }

    public func members(of conversationID: ConversationID) async throws -> [UserID]? {
        conversations[conversationID]?.memberIDs
    }

    public func contacts(of user: UserID) async throws -> [UserID] {
        Array(Set(joined(by: user).flatMap(\.memberIDs)).subtracting([user])).filter { !blocked.contains(Relation(who: user, whom: $0)) }
    }

    public func blocks(involving user: UserID) async throws -> (blocked: Set<UserID>, blockers: Set<UserID>) {
        (Set(blocked.filter { $0.who == user }.map(\.whom)), Set(blocked.filter { $0.whom == user }.map(\.who)))
    }

    public func conversations(of member: UserID) async throws -> [Conversation] {
        try await conditions.apply()
        return joined(by: member)
    }

    public func conversation(_ id: ConversationID) async throws -> Conversation? {
        try await conditions.apply()
        return conversations[id]
    }

    public func direct(key: String) async throws -> ConversationID? {
        try await conditions.apply()
        return oneToOne(key: key)?.id
    }

    public func startDirect(_ candidate: ConversationID, key: String, by starter: UserID, with other: UserID, at now: Date) async throws
        -> (id: ConversationID, notInvited: [NotInvited])
    {
        try await conditions.apply()
        if let first = oneToOne(key: key) { return (first.id, []) }
        return (candidate, await start(candidate, title: nil, by: starter, with: [other], adding: [other], first: true, at: now))
    }

    public func startGroup(
        _ id: ConversationID, title: String, by starter: UserID, with others: [UserID], adding people: [UserID], first: Bool, at now: Date
    )
        async throws -> [NotInvited]
    {
        try await conditions.apply()
        return await start(id, title: title, by: starter, with: others, adding: people, first: first, at: now)
    }

    public func takingTurns<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T { try await work() }

    public func invitations(of invitee: UserID) async throws -> [(conversation: Conversation, inviter: UserID, at: Date)] {
        try await conditions.apply()
        return pending.compactMap { id, invitees in
            guard let invitation = invitees[invitee], let conversation = conversations[id] else { return nil }
            return (conversation, invitation.inviter, invitation.at)
        }
    }

    public func enter(_ id: ConversationID, by person: UserID, accepting other: UserID) async throws -> Bool {
        try await conditions.apply()
        accepted.insert(Relation(who: person, whom: other))
        switch ConversationRules.entering(place(of: person, in: id)) {
        case .stays: return false
        case .accepts: try await acceptNow(id, by: person)
        case .joins: await join(person, id)
        }
        return true
    }

    public func accept(_ id: ConversationID, by person: UserID) async throws {
        try await conditions.apply()
        try await acceptNow(id, by: person)
    }

    public func decline(_ id: ConversationID, by person: UserID) async throws {
        try await conditions.apply()
        try await declineNow(id, by: person)
    }

    public func leave(_ id: ConversationID, by person: UserID) async throws {
        try await conditions.apply()
        try await leaveNow(id, by: person)
    }

    public func block(_ other: UserID, by person: UserID) async throws -> ConversationID? {
        try await conditions.apply()
        blocked.insert(Relation(who: person, whom: other))
        accepted.remove(Relation(who: person, whom: other))
        for (id, invitees) in pending where invitees[person]?.inviter == other { try await declineNow(id, by: person) }
        guard let direct = oneToOne(key: ConversationRules.directKey(person, other)), direct.memberIDs.contains(person) else { return nil }
        try await leaveNow(direct.id, by: person)
        return direct.id
    }

    public func unblock(_ other: UserID, by person: UserID) async throws {
        try await conditions.apply()
        blocked.remove(Relation(who: person, whom: other))
    }

    public func blocked(by person: UserID) async throws -> [UserID] {
        try await conditions.apply()
        return blocked.filter { $0.who == person }.map(\.whom).sorted()
    }

    /// Ticks when `member`'s list or invitations may have changed, and on any activity.
    public func changes(for member: UserID) async throws -> AsyncStream<Void> {
        let listChanges = changed.subscribe()
        let activityStream = try await activity.activityChanges()
        return AsyncStream { continuation in
            let forwarders = [
                Task {
                    for await concerned in listChanges where concerned.contains(member) { continuation.yield() }
                },
                Task {
                    for await _ in activityStream { continuation.yield() }
                },
            ]
            continuation.onTermination = { _ in forwarders.forEach { $0.cancel() } }
        }
    }

    /// The conversations `member` is a member of.
    private func joined(by member: UserID) -> [Conversation] {
        conversations.values.filter { $0.memberIDs.contains(member) }
    }

    /// The one-to-one whose pair's key (`ConversationRules.directKey`) is `key`.
    private func oneToOne(key: String) -> Conversation? {
        conversations.values.first { conversation in
            guard !conversation.isGroup, let pair = conversation.pair, pair.count == 2 else { return false }
            return ConversationRules.directKey(pair[0], pair[1]) == key
        }
    }

    /// Where `user` stands in `id`.
    private func place(of user: UserID, in id: ConversationID) -> ConversationRules.Place? {
        if conversations[id]?.memberIDs.contains(user) == true { return .member }
        return pending[id]?[user] == nil ? nil : .invited
    }

    /// Puts `people`, some of the `others` named in the new conversation `id` (with the `first`
    /// of them, the conversation and its starter too), in it, each as `Entrants` decides, and
    /// records its events; the starter accepts each of them from now on.
    private func start(
        _ id: ConversationID, title: String?, by starter: UserID, with others: [UserID], adding people: [UserID], first: Bool, at now: Date
    ) async -> [NotInvited] {
        let named = others.filter { $0 != starter }, adding = people.filter { $0 != starter }
        for other in adding { accepted.insert(Relation(who: starter, whom: other)) }
        let facts = adding.map { other in
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
        let entrants = Entrants(facts, starter: starter, othersNamed: named.count, first: first)
        for (invitee, expired) in entrants.expiring { pending[expired]?[invitee] = nil }
        let before = first ? [] : conversations[id]?.memberIDs ?? []
        let everyone = before + entrants.members
        conversations[id] = Conversation(
            id: id, title: title, memberIDs: everyone, createdAt: first ? now : conversations[id]?.createdAt ?? now,
            pair: title == nil ? [starter] + others : nil)
        for invitee in entrants.invited { pending[id, default: [:]][invitee] = Pending(inviter: starter, at: now) }
        let events = entrants.events(in: id, everyone: everyone)
        for (change, invitee) in events.expired { await record(change, for: [invitee]) }
        if let added = events.added { await record(added.change, for: added.audience) }
        for (change, invitee) in events.invitations { await record(change, for: [invitee]) }
        return entrants.notInvited
    }

    /// `user` accepts the invitation to `id`, as `ConversationRules.accepting` says: a member,
    /// and accepting its inviter from now on.
    private func acceptNow(_ id: ConversationID, by user: UserID) async throws {
        guard try ConversationRules.accepting(place(of: user, in: id), in: id), let invitation = pending[id]?.removeValue(forKey: user) else {
            return
        }
        accepted.insert(Relation(who: user, whom: invitation.inviter))
        await join(user, id)
    }

    /// `user` declines the invitation to `id`, as `ConversationRules.declining` says.
    private func declineNow(_ id: ConversationID, by user: UserID) async throws {
        guard try ConversationRules.declining(place(of: user, in: id), in: id, exists: conversations[id] != nil) else { return }
        pending[id]?[user] = nil
        await record(.conversationLeft(id, by: user), for: [user])
    }

    /// `user` leaves `id`, as `ConversationRules.leaving` says.
    private func leaveNow(_ id: ConversationID, by user: UserID) async throws {
        let conversation = conversations[id]
        let wasMember = conversation?.memberIDs.contains(user) == true
        guard try ConversationRules.leaving(wasMember: wasMember, in: id, exists: conversation != nil), let conversation else { return }
        let remaining = conversation.memberIDs.filter { $0 != user }
        conversations[id] = Conversation(
            id: id, title: conversation.title, memberIDs: remaining, createdAt: conversation.createdAt, pair: conversation.pair)
        await record(.conversationLeft(id, by: user), for: ConversationRules.leftAudience(user, members: remaining))
    }

    private func join(_ user: UserID, _ id: ConversationID) async {
        guard let conversation = conversations[id] else { return }
        let joined = Conversation(
            id: id, title: conversation.title, memberIDs: conversation.memberIDs + [user], createdAt: conversation.createdAt,
            pair: conversation.pair)
        conversations[id] = joined
        await record(.conversationAdded(id, joining: user), for: joined.memberIDs)
    }

    private func record(_ change: StoreChange, for audience: [UserID]) async {
        await journal?.record(change, audience: audience)
        changed.send(Set(audience))
    }
}
