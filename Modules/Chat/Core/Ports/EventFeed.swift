import Kernel
import Synchronization

/// New events of one process, read once and handed to every live reader: the port behind
/// `ChatService.liveMessages` and `liveEvents`, and what a server pushes to its sockets from.
/// The graph owns one per process; the SQLite one wakes on the file's changes, the memory one
/// is the store itself.
public protocol EventFeed: Sendable {
    /// Hands `reader` the events stored from now on (`EventFanOut.Reader`): with a
    /// `conversationID`, that conversation's messages; with `nil`, every event `member` may see.
    /// The caller has checked membership of `conversationID`.
    func subscribe(conversation conversationID: ConversationID?, member: UserID, reader: @escaping EventFanOut.Reader) async throws
        -> EventSubscription
}

extension EventFeed {
    /// The same events as a stream that buffers at most 1,024 of them for its reader; a reader
    /// that falls further behind sees the stream end (it resumes after its last cursor).
    public func subscribe(conversation conversationID: ConversationID?, member: UserID) async throws -> AsyncStream<UserEvent> {
        let (stream, continuation) = AsyncStream<UserEvent>.makeStream(bufferingPolicy: .bufferingOldest(1_024))
        let subscription = try await subscribe(conversation: conversationID, member: member) { event in
            guard case .enqueued = continuation.yield(event) else {
                continuation.finish()
                return false
            }
            return true
        }
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }
}

/// A live reader's registration with an `EventFanOut`: cancelling it stops the deliveries.
public final class EventSubscription: Sendable {
    private let cancellation: Mutex<(@Sendable () -> Void)?>

    init(cancel: @escaping @Sendable () -> Void) { cancellation = Mutex(cancel) }

    /// Stops delivering to the reader; later calls do nothing.
    public func cancel() {
        cancellation.withLock { cancel in
            defer { cancel = nil }
            return cancel
        }?()
    }
}
