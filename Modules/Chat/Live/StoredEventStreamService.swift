import Chat
import Kernel

/// One caller's events of a store (`ChatHistoryStore`: SQLite's or PostgreSQL's), written once
/// for both: live from the process's feed (`StoreEventFeed`, which every process's commits
/// reach), and caught up from the store, cut and paid for (`CallerReads`), after a cursor checked
/// against the store.
public struct StoredEventStreamService: EventStreamService {
    private let store: any ChatHistoryStore
    private let feed: any EventFeed
    private let caller: Caller
    private let reads: CallerReads

    /// Creates the service for `caller` over `store` and the process's event `feed`, with
    /// conversations' members from `membership`; each catch-up spends look-ups from `budget`.
    public init(
        store: any ChatHistoryStore, feed: any EventFeed, membership: any ConversationMembership, caller: Caller,
        budget: UsageBudget = .unlimited
    ) {
        self.store = store
        self.feed = feed
        self.caller = caller
        reads = CallerReads(membership: membership, caller: caller, budget: budget, epoch: store.epoch)
    }

    public func liveMessages(in conversationID: ConversationID?) async throws -> AsyncStream<Message> {
        let me = try await reader(of: conversationID)
        return caller.guarding(try await feed.subscribe(conversation: conversationID, member: me).compactMapped(\.message))
    }

    public func liveEvents() async throws -> AsyncStream<UserEvent> {
        let (me, grant) = try await caller.principal()
        return caller.guarding(try await feed.subscribe(conversation: nil, member: me).compactMapped { ChatRules.shows($0, under: grant) ? $0 : nil })
    }

    public func events(after cursor: EventCursor, limit: Int) async throws -> [UserEvent] {
        let (me, grant) = try await caller.principal()
        let top = try await store.newestPosition()
        try await reads.check(cursor) { top }
        let limit = min(max(limit, 0), ChatRules.catchUpLimit)
        return try await ChatRules.visibleEvents(under: grant, after: cursor, limit: limit) { after in
            try await reads.catchUp { try await store.events(after: after.position, upTo: top, for: me, limit: limit) }
        }
    }

    public func messages(after cursor: EventCursor, in conversationID: ConversationID?, limit: Int) async throws -> [Message] {
        let me = try await reader(of: conversationID)
        let top = try await store.newestPosition()
        try await reads.check(cursor) { top }
        let limit = min(max(limit, 0), ChatRules.catchUpLimit)
        return try await reads.catchUp {
            try await store.messages(after: cursor.position, upTo: top, in: conversationID, of: me, limit: limit)
        }
    }

    /// The caller, as a reader of `conversationID` (checked), or of all their conversations (a
    /// person only: a bot's token reads one conversation at a time).
    private func reader(of conversationID: ConversationID?) async throws -> UserID {
        guard let conversationID else { return try await caller.id() }
        return try await reads.authorize(conversationID)
    }

    public func newestCursor() async throws -> EventCursor? {
        let me = try await caller.principal().id
        return try await store.newestPosition(for: me).map { EventCursor(epoch: store.epoch, position: $0) }
    }
}
