import Kernel

/// New messages of one process, read once and handed to every live reader: the port behind
/// `ChatService.liveMessages`. The graph owns one per process; the SQLite one wakes on the
/// file's changes, a later server one on its store's notifications.
public protocol MessageFeed: Sendable {
    /// Messages stored from now on in `conversationID`, or with `nil` in any conversation
    /// `member` belongs to. The caller has checked membership of `conversationID` already.
    func subscribe(conversation conversationID: ConversationID?, member: UserID) async throws -> AsyncStream<Message>
}
