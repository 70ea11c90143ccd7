import Kernel
import Synchronization

/// Hands each new event to the live readers of its conversation and of its audience only, so
/// the cost of an event does not grow with the number of readers elsewhere. A reader whose
/// buffer is full is ended rather than skipped over: it resumes after its last cursor and
/// loses nothing. Shared by every `EventFeed`.
public final class EventFanOut: Sendable {
    private typealias Continuation = AsyncStream<UserEvent>.Continuation

    private struct State {
        var nextID = 0
        var byConversation: [ConversationID: [Int: Continuation]] = [:]
        var byMember: [UserID: [Int: Continuation]] = [:]
    }

    private let state = Mutex(State())
    private let bufferSize: Int

    /// Creates a fan-out whose readers buffer at most `bufferSize` undelivered events each.
    public init(bufferSize: Int = 1_024) { self.bufferSize = bufferSize }

    /// A reader of one conversation's messages, or of every event of `member`'s when
    /// `conversationID` is `nil`.
    public func subscribe(conversation conversationID: ConversationID?, member: UserID) -> AsyncStream<UserEvent> {
        let (stream, continuation) = AsyncStream<UserEvent>.makeStream(bufferingPolicy: .bufferingOldest(bufferSize))
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            if let conversationID {
                state.byConversation[conversationID, default: [:]][state.nextID] = continuation
            } else {
                state.byMember[member, default: [:]][state.nextID] = continuation
            }
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in
                if let conversationID {
                    state.byConversation[conversationID]?[id] = nil
                    if state.byConversation[conversationID]?.isEmpty == true { state.byConversation[conversationID] = nil }
                } else {
                    state.byMember[member]?[id] = nil
                    if state.byMember[member]?.isEmpty == true { state.byMember[member] = nil }
                }
            }
        }
        return stream
    }

    /// Delivers `event` to the readers of each of `audience` and, for a message, of its conversation.
    public func publish(_ event: UserEvent, to audience: [UserID]) {
        let readers = state.withLock { state in
            Array((event.message.flatMap { state.byConversation[$0.conversationID] } ?? [:]).values)
                + audience.flatMap { (state.byMember[$0] ?? [:]).values }
        }
        for reader in readers where !reader.yield(event).accepted { reader.finish() }
    }
}

extension AsyncStream.Continuation.YieldResult {
    /// Whether the element was buffered for the reader.
    fileprivate var accepted: Bool {
        if case .enqueued = self { true } else { false }
    }
}
