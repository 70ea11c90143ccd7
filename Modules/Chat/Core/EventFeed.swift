import Kernel

/// New events of one process, read once and handed to every live reader: the port behind
/// `ChatService.liveMessages` and `liveEvents`. The graph owns one per process; the SQLite one
/// wakes on the file's changes, the memory one is the store itself.
public protocol EventFeed: Sendable {
    /// Events stored from now on: with a `conversationID`, that conversation's messages; with
    /// `nil`, every event `member` may see. The caller has checked membership of `conversationID`.
    func subscribe(conversation conversationID: ConversationID?, member: UserID) async throws -> AsyncStream<UserEvent>
}
