import Kernel

extension EventStreamService {
    /// Live messages that start right after `cursor`: subscribes first, then reads what was
    /// stored after the cursor, then passes live messages on, skipping those it already gave.
    /// No message falls between, none comes twice. Without a cursor, `liveMessages(in:)`.
    /// - Throws: `.gone` for a cursor of another store, before anything is returned.
    public func liveMessages(in conversationID: ConversationID?, after cursor: EventCursor?) async throws -> AsyncStream<Message> {
        let live = try await liveMessages(in: conversationID)
        guard let cursor else { return live }
        let first = try await messages(after: cursor, in: conversationID, limit: ChatRules.catchUpLimit)
        return ResumedEvents.stream(live: live, after: cursor, first: first, cursor: \.cursor) { last in
            try await messages(after: last, in: conversationID, limit: ChatRules.catchUpLimit)
        }
    }

    /// Every event the user may see, starting right after `cursor`, the same way: subscribed
    /// first, then caught up, then live, with none missed and none twice. Without a cursor,
    /// `liveEvents()`.
    /// - Throws: `.gone` for a cursor of another store, before anything is returned.
    public func liveEvents(after cursor: EventCursor?) async throws -> AsyncStream<UserEvent> {
        let live = try await liveEvents()
        guard let cursor else { return live }
        let first = try await events(after: cursor, limit: ChatRules.catchUpLimit)
        return ResumedEvents.stream(live: live, after: cursor, first: first, cursor: \.cursor) { last in
            try await events(after: last, limit: ChatRules.catchUpLimit)
        }
    }
}
