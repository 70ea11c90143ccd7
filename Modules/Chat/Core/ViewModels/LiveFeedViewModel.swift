import Kernel
import Observation

/// Events as they arrive: the user's messages, or every event of the user's (the CLI's
/// `tail`), in all their conversations or in one.
@MainActor
@Observable
public final class LiveFeedViewModel {
    /// Events received since `run` started, oldest first.
    public private(set) var received: [UserEvent] = []
    /// `loading` while subscribing, `loaded` while listening, `failed` if it could not subscribe.
    public private(set) var connection: Loadable<Bool> = .idle
    /// Why live events keep failing, while they do (`EventStreamService.liveTrouble`): what a reader says
    /// on the terminal rather than wait in silence.
    public private(set) var trouble: String?

    private let service: any EventStreamService
    private let conversationID: ConversationID?
    private let after: EventCursor?
    private let changes: Bool

    /// Creates a feed of the user's messages (with `changes`, of every event they may see: edits,
    /// deletions, reactions, read markers, conversations joined or left, new names), only those of
    /// `conversationID` when it is given; with `after`, it starts with those stored after that cursor.
    public init(service: any EventStreamService, conversationID: ConversationID?, after: EventCursor? = nil, changes: Bool = false) {
        self.service = service
        self.conversationID = conversationID
        self.after = after
        self.changes = changes
    }

    /// Listens until the calling task is cancelled, or until `limit` events have arrived.
    public func run(limit: Int? = nil) async {
        connection = .loading
        let stream: AsyncStream<UserEvent>
        do {
            if let conversationID, !changes {
                stream = try await service.liveMessages(in: conversationID, after: after).mapped(UserEvent.message)
            } else {
                let (conversationID, changes) = (conversationID, changes)
                stream = try await service.liveEvents(after: after).compactMapped { event in
                    (conversationID == nil || event.conversationID == conversationID) && (changes || event.message != nil) ? event : nil
                }
            }
        } catch {
            connection = await .from { throw error }
            return
        }
        connection = .loaded(true)
        let troubles = try? await service.liveTrouble()
        let follower = Task { for await trouble in (troubles ?? AsyncStream { $0.finish() }) { self.trouble = trouble } }
        defer { follower.cancel() }
        for await event in stream {
            received.append(event)
            if let limit, received.count >= limit { break }
        }
        connection = .idle
    }
}
