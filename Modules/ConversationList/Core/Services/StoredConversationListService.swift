import Foundation
import Kernel

/// One caller's view of the conversations of a store (`ConversationListStore`: memory's,
/// SQLite's or PostgreSQL's), written once for all three: who the caller is, what is checked
/// (`SummaryBuilder`), what is spent from their budget, which caches are told, and what is
/// answered. Each change of who is in a conversation is one of the store's transactions, with
/// its events; a group is written in parts (`ConversationRules.writingInParts`), taking turns
/// with the store's other large writes.
public struct StoredConversationListService: ConversationListService {
    private let store: any ConversationListStore
    private let choices: any NotificationChoiceStore
    private let builder: SummaryBuilder
    private let caller: Caller
    private let clock: any WallClock
    private let budget: UsageBudget
    private let membersChanged: @Sendable (ConversationID) -> Void
    private let blocksChanged: @Sendable ([UserID]) -> Void
    private let ownedBots: (any OwnedBots)?

    /// Creates the service for `caller` over `store`, `choices` (what members chose to be told
    /// of) and the list's summary builder; each
    /// conversation started or left spends from `budget`'s conversations (a group by its size,
    /// `ConversationRules.conversationCost`), each block and unblock from its look-ups, and
    /// `membersChanged` hears of each conversation whose members this service changed (a cache
    /// of members forgets it), `blocksChanged` of the two people of each block and unblock; the
    /// bots a person keeps (`ownedBots`) leave a conversation with them.
    public init(
        store: any ConversationListStore, choices: any NotificationChoiceStore, builder: SummaryBuilder, caller: Caller,
        clock: any WallClock = SystemWallClock(),
        budget: UsageBudget = .unlimited, membersChanged: @escaping @Sendable (ConversationID) -> Void = { _ in },
        blocksChanged: @escaping @Sendable ([UserID]) -> Void = { _ in }, ownedBots: (any OwnedBots)? = nil
    ) {
        self.store = store
        self.choices = choices
        self.builder = builder
        self.caller = caller
        self.clock = clock
        self.budget = budget
        self.membersChanged = membersChanged
        self.blocksChanged = blocksChanged
        self.ownedBots = ownedBots
    }

    public func conversations(limit: Int, after: ConversationID?) async throws -> ConversationPage {
        try ConversationRules.checkPageLimit(limit)
        return try ConversationRules.page(of: try await conversations(), limit: limit, after: after)
    }

    public func conversations() async throws -> [ConversationSummary] {
        let (me, grant) = try await caller.principal()
        var conversations = try await store.conversations(of: me)
        // A bot's token lists what it may read or send in, and sees messages only where it reads.
        if grant != .person { conversations = conversations.filter { ConversationRules.listed($0.id, under: grant) } }
        let rows = try await choosing(try await builder.summaries(of: conversations, for: me), of: me)
        return grant == .person ? rows : rows.map { ConversationRules.row($0, under: grant) }
    }

    public func chooseNotifications(_ level: NotificationLevel?, until: Date?, in conversationID: ConversationID) async throws {
        let me = try await caller.id()
        guard let conversation = try await store.conversation(conversationID), conversation.memberIDs.contains(me) else {
            throw AppError.noConversation(conversationID)
        }
        try NotificationChoice.check(until: until, at: clock.now())
        try budget.spend(.lookup, by: me)
        // A quiet conversation keeps its place in the list: where its last activity puts it now,
        // or, chosen again while quiet, where it was already held.
        let standing = try await choices.choices(of: me)[conversationID]?.standing(at: clock.now())
        let held = standing.flatMap { $0.level == .all ? nil : $0.placedAt }
        var placedAt = held
        if level != nil, placedAt == nil { placedAt = try await builder.summary(of: conversation, for: me).lastActivityAt }
        try await choices.choose(level.map { NotificationChoice(level: $0, until: until, placedAt: placedAt) }, in: conversationID, for: me)
    }

    /// `rows` with what `reader` chose to be told of in each, while it stands, in their places
    /// (a quiet one held where it was).
    private func choosing(_ rows: [ConversationSummary], of reader: UserID) async throws -> [ConversationSummary] {
        let chosen = try await choices.choices(of: reader)
        guard !chosen.isEmpty else { return rows }
        let now = clock.now()
        return ConversationSummary.byRecentActivity(rows.map { $0.choosing(chosen[$0.id]?.standing(at: now)) })
    }

    public func startDirect(with userID: UserID) async throws -> ConversationSummary {
        let me = try await caller.id()
        try await builder.checkDirect(from: me, with: userID)
        let key = ConversationRules.directKey(me, userID)
        if let existing = try await store.direct(key: key) { return try await enter(existing, me: me, accepting: userID) }
        try budget.spend(.conversation, by: me)
        let candidate = ConversationID.random()
        let (id, notInvited) = try await store.startDirect(candidate, key: key, by: me, with: userID, at: clock.now())
        // Another process made the pair's one-to-one first: the caller comes to that one.
        guard id == candidate else { return try await enter(id, me: me, accepting: userID) }
        return try await summary(of: candidate, for: me).started(notInviting: notInvited)
    }

    public func createGroup(title: String, memberIDs: [UserID]) async throws -> ConversationSummary {
        let me = try await caller.id()
        let (title, members) = try await builder.checkGroup(title: title, creator: me, adding: memberIDs) { others in
            try budget.spend(.conversation, by: me, cost: ConversationRules.conversationCost(naming: others))
        }
        let id = ConversationID.random(), now = clock.now(), others = Array(members.dropFirst()), store = store
        let notInvited = try await store.takingTurns {
            try await ConversationRules.writingInParts(others) { people, first in
                try await store.startGroup(id, title: title, by: me, with: others, adding: people, first: first, at: now)
            }
        }
        return try await summary(of: id, for: me).started(notInviting: notInvited)
    }

    public func invitations() async throws -> [Invitation] {
        let me = try await caller.id()
        return try await builder.invitations(to: try await store.invitations(of: me), for: me)
    }

    public func accept(_ conversationID: ConversationID) async throws -> ConversationSummary {
        let me = try await caller.id()
        try await store.accept(conversationID, by: me)
        membersChanged(conversationID)
        return try await summary(of: conversationID, for: me)
    }

    public func decline(_ conversationID: ConversationID) async throws {
        try await store.decline(conversationID, by: try await caller.id())
    }

    /// Leaves `conversationID`, and the bots the caller keeps there leave with her: a bot acts
    /// only where its owner is, and nobody else may take it out.
    public func leave(_ conversationID: ConversationID) async throws {
        let me = try await caller.id()
        try budget.spend(.conversation, by: me)
        let members = try await store.conversation(conversationID)?.memberIDs ?? []
        try await store.leave(conversationID, by: me)
        for bot in try await ownedBots?.bots(keptBy: me) ?? [] where members.contains(bot) { try await store.leave(conversationID, by: bot) }
        membersChanged(conversationID)
    }

    public func block(_ userID: UserID) async throws {
        let me = try await caller.id()
        try await builder.checkBlock(by: me, of: userID)
        try budget.spend(.lookup, by: me)
        let left = try await store.block(userID, by: me)
        blocksChanged([me, userID])
        if let left { membersChanged(left) }
    }

    public func unblock(_ userID: UserID) async throws {
        let me = try await caller.id()
        try budget.spend(.lookup, by: me)
        try await store.unblock(userID, by: me)
        blocksChanged([me, userID])
    }

    public func blockedUsers() async throws -> [UserID] {
        try await store.blocked(by: try await caller.id())
    }

    public func changes() async throws -> AsyncStream<Void> {
        try await store.changes(for: try await caller.id())
    }

    /// `me` comes to an existing one-to-one by starting it (`ConversationListStore.enter`).
    private func enter(_ id: ConversationID, me: UserID, accepting other: UserID) async throws -> ConversationSummary {
        if try await store.enter(id, by: me, accepting: other) { membersChanged(id) }
        return try await summary(of: id, for: me)
    }

    private func summary(of id: ConversationID, for reader: UserID) async throws -> ConversationSummary {
        guard let conversation = try await store.conversation(id) else { throw AppError.noConversation(id) }
        return try await choosing([try await builder.summary(of: conversation, for: reader)], of: reader)[0]
    }
}
