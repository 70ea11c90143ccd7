import Kernel
import Synchronization

/// Hands each new event to the live readers of its conversation and of its audience only, so
/// the cost of an event does not grow with the number of readers elsewhere. Readers are called
/// on the publisher's thread, one event at a time and in order, so they must only hand the
/// event on (buffer it, queue a write); one that cannot take it returns `false` and is dropped:
/// it resumes after its last cursor and loses nothing. Shared by every `EventFeed`.
public final class EventFanOut: Sendable {
    /// Takes one event; `false` when it can take no more, which ends its subscription.
    public typealias Reader = @Sendable (UserEvent) -> Bool

    /// What a reader listens to: one conversation's messages, or every event of one member's.
    private enum Topic: Hashable {
        case conversation(ConversationID)
        case member(UserID)
    }

    private struct State {
        var nextID = 0
        var readers: [Topic: [Int: Reader]] = [:]

        mutating func remove(_ id: Int, from topic: Topic) {
            readers[topic]?[id] = nil
            if readers[topic]?.isEmpty == true { readers[topic] = nil }
        }
    }

    private let state = Mutex(State())

    /// Creates a fan-out with no readers.
    public init() {}

    /// Registers `reader` for one conversation's messages, or for every event of `member`'s when
    /// `conversationID` is `nil`, until the subscription is cancelled or the reader refuses one.
    public func subscribe(conversation conversationID: ConversationID?, member: UserID, reader: @escaping Reader) -> EventSubscription {
        let topic = conversationID.map(Topic.conversation) ?? .member(member)
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.readers[topic, default: [:]][state.nextID] = reader
            return state.nextID
        }
        return EventSubscription { [weak self] in self?.state.withLock { $0.remove(id, from: topic) } }
    }

    /// Delivers `event` to the readers of each of `audience` and, for a message, of its conversation.
    public func publish(_ event: UserEvent, to audience: [UserID]) {
        let topics = (event.message.map { [Topic.conversation($0.conversationID)] } ?? []) + audience.map(Topic.member)
        let readers = state.withLock { state in
            topics.flatMap { topic in (state.readers[topic] ?? [:]).map { (topic: topic, id: $0.key, take: $0.value) } }
        }
        let refused = readers.filter { !$0.take(event) }
        guard !refused.isEmpty else { return }
        state.withLock { state in
            for reader in refused { state.remove(reader.id, from: reader.topic) }
        }
    }
}
