import Kernel

extension ChatService {
    /// Live messages that start right after `cursor`: subscribes first, then reads what was
    /// stored after the cursor, then passes live messages on, skipping those it already gave.
    /// No message falls between, none comes twice. Without a cursor, `liveMessages(in:)`.
    /// - Throws: `.invalidInput` for a cursor of another store, before anything is returned.
    public func liveMessages(in conversationID: ConversationID?, after cursor: EventCursor?) async throws -> AsyncStream<Message> {
        let live = try await liveMessages(in: conversationID)
        guard let cursor else { return live }
        let limit = ChatRules.catchUpLimit
        let first = try await messages(after: cursor, in: conversationID, limit: limit)
        return AsyncStream { continuation in
            let forwarder = Task {
                var last = cursor
                var page = first
                while true {
                    for message in page {
                        continuation.yield(message)
                        if let cursor = message.cursor, cursor.follows(last) { last = cursor }
                    }
                    guard page.count == limit else { break }
                    // A failed read ends the stream rather than skip what it could not read.
                    guard let next = try? await messages(after: last, in: conversationID, limit: limit) else {
                        continuation.finish()
                        return
                    }
                    page = next
                }
                for await message in live {
                    guard let cursor = message.cursor else {
                        continuation.yield(message)
                        continue
                    }
                    // Of another epoch: the store was replaced under the reader, who must start over.
                    guard cursor.epoch == last.epoch else { break }
                    if cursor.follows(last) { continuation.yield(message) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in forwarder.cancel() }
        }
    }
}
