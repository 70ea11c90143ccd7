import Kernel
import Observation

/// Events as they arrive: one conversation's messages, or every event of the user's (the
/// CLI's `tail`).
@MainActor
@Observable
public final class LiveFeedViewModel {
    /// Events received since `run` started, oldest first.
    public private(set) var received: [UserEvent] = []
    /// `loading` while subscribing, `loaded` while listening, `failed` if it could not subscribe.
    public private(set) var connection: Loadable<Bool> = .idle

    private let service: any ChatService
    private let conversationID: ConversationID?
    private let after: EventCursor?
    private let changes: Bool

    /// Creates a feed of one conversation's messages, or of every message of the user's when
    /// `conversationID` is `nil` (with `changes`, every event); with `after`, it starts with
    /// those stored after that cursor.
    public init(service: any ChatService, conversationID: ConversationID?, after: EventCursor? = nil, changes: Bool = false) {
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
            if let conversationID {
                stream = try await service.liveMessages(in: conversationID, after: after).mapped(UserEvent.message)
            } else {
                let events = try await service.liveEvents(after: after)
                stream = changes ? events : events.compactMapped { $0.message == nil ? nil : $0 }
            }
        } catch {
            connection = await .from { throw error }
            return
        }
        connection = .loaded(true)
        for await event in stream {
            received.append(event)
            if let limit, received.count >= limit { break }
        }
        connection = .idle
    }
}
