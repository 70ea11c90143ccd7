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
        let me = try await caller.id()
        if let conversationID { try await store.membership.requireMember(me, of: conversationID) }
        return caller.guarding(try await store.subscribe(conversation: conversationID, member: me).compactMapped(\.message))
    }

    public func liveEvents() async throws -> AsyncStream<UserEvent> {
        let me = try await caller.id()
        return caller.guarding(try await store.subscribe(conversation: nil, member: me))
    }

    public func events(after cursor: EventCursor, limit: Int) async throws -> [UserEvent] {
        try await store.conditions.apply()
        let me = try await caller.id()
        return try await store.events(after: cursor, for: me, limit: min(max(limit, 0), ChatRules.catchUpLimit))
    }

    public func messages(after cursor: EventCursor, in conversationID: ConversationID?, limit: Int) async throws -> [Message] {
        try await store.conditions.apply()
        let me = try await caller.id()
        if let conversationID { try await store.membership.requireMember(me, of: conversationID) }
        return try await store.messages(after: cursor, in: conversationID, for: me, limit: min(max(limit, 0), ChatRules.catchUpLimit))
    }

    public func newestCursor() async throws -> EventCursor? {
        try await store.conditions.apply()
        return try await store.newestCursor(for: try await caller.id())
    }
}
