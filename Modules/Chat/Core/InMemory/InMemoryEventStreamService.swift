import Kernel

/// One caller's events of the memory backend's messages, live from its store and caught up.
public struct InMemoryEventStreamService: EventStreamService {
    private let store: InMemoryChatStore
    private let caller: Caller

    /// Creates the service for `caller` over the shared store.
    public init(store: InMemoryChatStore, caller: Caller) {
        self.store = store
        self.caller = caller
    }

    public func liveMessages(in conversationID: ConversationID?) async throws -> AsyncStream<Message> {
        let me = try await reader(of: conversationID)
        return caller.guarding(try await store.subscribe(conversation: conversationID, member: me).compactMapped(\.message))
    }

    public func liveEvents() async throws -> AsyncStream<UserEvent> {
        let (me, grant) = try await caller.principal()
        return caller.guarding(
            try await store.subscribe(conversation: nil, member: me).compactMapped { ChatRules.shows($0, under: grant) ? $0 : nil })
    }

    public func events(after cursor: EventCursor, limit: Int) async throws -> [UserEvent] {
        try await store.conditions.apply()
        let (me, grant) = try await caller.principal()
        let limit = min(max(limit, 0), ChatRules.catchUpLimit)
        return try await ChatRules.visibleEvents(under: grant, after: cursor, limit: limit) { after in
            try await store.events(after: after, for: me, limit: limit)
        }
    }

    public func messages(after cursor: EventCursor, in conversationID: ConversationID?, limit: Int) async throws -> [Message] {
        try await store.conditions.apply()
        let me = try await reader(of: conversationID)
        return try await store.messages(after: cursor, in: conversationID, for: me, limit: min(max(limit, 0), ChatRules.catchUpLimit))
    }

    public func newestCursor() async throws -> EventCursor? {
        try await store.conditions.apply()
        return try await store.newestCursor(for: try await caller.principal().id)
    }

    /// The caller, as a reader of `conversationID` (checked), or of all their conversations (a
    /// person only: a bot's token reads one conversation at a time).
    private func reader(of conversationID: ConversationID?) async throws -> UserID {
        guard let conversationID else { return try await caller.id() }
        return try await store.membership.require(caller, to: .read, in: conversationID).me
    }
}
