import Kernel

extension ChatService {
    /// Live messages that start right after `cursor`: subscribes first, then reads what was
    /// stored after the cursor, then passes live messages on, skipping those it already gave.
    /// No message falls between, none comes twice. Without a cursor, `liveMessages(in:)`.
    /// - Throws: `.invalidInput` for a cursor of another store, before anything is returned.
    public func liveMessages(in conversationID: ConversationID?, after cursor: EventCursor?) async throws -> AsyncStream<Message> {
        let live = try await liveMessages(in: conversationID)
        guard let cursor else { return live }
        let first = try await messages(after: cursor, in: conversationID, limit: ChatRules.catchUpLimit)
        return Self.resumed(live: live, after: cursor, first: first, cursor: \.cursor) { last in
            try await messages(after: last, in: conversationID, limit: ChatRules.catchUpLimit)
        }
    }

    /// Every event the user may see, starting right after `cursor`, the same way: subscribed
    /// first, then caught up, then live, with none missed and none twice. Without a cursor,
    /// `liveEvents()`.
    /// - Throws: `.invalidInput` for a cursor of another store, before anything is returned.
    public func liveEvents(after cursor: EventCursor?) async throws -> AsyncStream<UserEvent> {
        let live = try await liveEvents()
        guard let cursor else { return live }
        let first = try await events(after: cursor, limit: ChatRules.catchUpLimit)
        return Self.resumed(live: live, after: cursor, first: first, cursor: \.cursor) { last in
            try await events(after: last, limit: ChatRules.catchUpLimit)
        }
    }

    /// `first`, then the pages `next` reads after the last cursor given while pages come full,
    /// then the `live` elements after that cursor. Ends when a page cannot be read (rather than
    /// skip it) and when a live element comes from another epoch (the store was replaced).
    private static func resumed<Element: Sendable>(
        live: AsyncStream<Element>, after cursor: EventCursor, first: [Element], cursor cursorOf: @escaping @Sendable (Element) -> EventCursor?,
        next: @escaping @Sendable (EventCursor) async throws -> [Element]
    ) -> AsyncStream<Element> {
        let limit = ChatRules.catchUpLimit
        return AsyncStream { continuation in
            let forwarder = Task {
                var last = cursor
                var page = first
                while true {
                    for element in page {
                        continuation.yield(element)
                        if let cursor = cursorOf(element), cursor.follows(last) { last = cursor }
                    }
                    guard page.count == limit else { break }
                    guard let read = try? await next(last) else {
                        continuation.finish()
                        return
                    }
                    page = read
                }
                for await element in live {
                    guard let cursor = cursorOf(element) else {
                        continuation.yield(element)
                        continue
                    }
                    guard cursor.epoch == last.epoch else { break }
                    if cursor.follows(last) {
                        last = cursor
                        continuation.yield(element)
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in forwarder.cancel() }
        }
    }
}
