import Kernel
import Observation

/// Messages as they arrive, in one conversation or all of the user's (the CLI's `tail`).
@MainActor
@Observable
public final class LiveFeedViewModel {
    /// Messages received since `run` started, oldest first.
    public private(set) var received: [Message] = []
    /// `loading` while subscribing, `loaded` while listening, `failed` if it could not subscribe.
    public private(set) var connection: Loadable<Bool> = .idle

    private let service: any ChatService
    private let conversationID: ConversationID?
    private let after: EventCursor?

    /// Creates a feed of one conversation, or of all the user's when `conversationID` is `nil`;
    /// with `after`, it starts with the messages stored after that cursor.
    public init(service: any ChatService, conversationID: ConversationID?, after: EventCursor? = nil) {
        self.service = service
        self.conversationID = conversationID
        self.after = after
    }

    /// Listens until the calling task is cancelled, or until `limit` messages have arrived.
    public func run(limit: Int? = nil) async {
        connection = .loading
        let stream: AsyncStream<Message>
        do {
            stream = try await service.liveMessages(in: conversationID, after: after)
        } catch {
            connection = await .from { throw error }
            return
        }
        connection = .loaded(true)
        for await message in stream {
            received.append(message)
            if let limit, received.count >= limit { break }
        }
        connection = .idle
    }
}
