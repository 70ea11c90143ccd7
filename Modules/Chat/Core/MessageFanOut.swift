import Kernel
import Synchronization

/// Hands each new message to the live readers of its conversation and of its members only, so
/// the cost of a message does not grow with the number of readers elsewhere. Shared by every
/// `MessageFeed`.
public final class MessageFanOut: Sendable {
    private typealias Continuation = AsyncStream<Message>.Continuation

    private struct State {
        var nextID = 0
        var byConversation: [ConversationID: [Int: Continuation]] = [:]
        var byMember: [UserID: [Int: Continuation]] = [:]
    }

    private let state = Mutex(State())
    private let bufferSize: Int

    /// Creates a fan-out whose readers buffer at most `bufferSize` undelivered messages each.
    public init(bufferSize: Int = 4_096) { self.bufferSize = bufferSize }

    /// A reader of one conversation, or of all of `member`'s conversations when `conversationID` is `nil`.
    public func subscribe(conversation conversationID: ConversationID?, member: UserID) -> AsyncStream<Message> {
        let (stream, continuation) = AsyncStream<Message>.makeStream(bufferingPolicy: .bufferingNewest(bufferSize))
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

    /// Delivers `message` to the readers of its conversation and of each of `members`.
    public func publish(_ message: Message, to members: [UserID]) {
        let readers = state.withLock { state in
            Array((state.byConversation[message.conversationID] ?? [:]).values)
                + members.flatMap { (state.byMember[$0] ?? [:]).values }
        }
        for reader in readers { reader.yield(message) }
    }
}
