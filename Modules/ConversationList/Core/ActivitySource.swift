import Kernel

/// What the list needs from outside about messages: the newest one and unread counts, and a tick
/// when they change. Connected to Chat by the composition root.
public protocol ActivitySource: Sendable {
    /// Activity of each conversation as `reader` sees it; conversations with no messages may be left out.
    func activity(of conversationIDs: [ConversationID], for reader: UserID) async throws -> [ConversationID: ConversationActivity]
    /// Ticks when messages or read markers may have changed.
    func activityChanges() async throws -> AsyncStream<Void>
}
