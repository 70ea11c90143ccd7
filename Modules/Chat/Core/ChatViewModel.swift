import Kernel
import Observation

/// One conversation: history, paging back, live messages, sending with pending/sent/failed
/// states and retry, marking read.
@MainActor
@Observable
public final class ChatViewModel {
    /// The messages shown.
    public private(set) var timeline: Loadable<Timeline> = .idle
    /// The last page-back (`/more`): how many older messages arrived.
    public private(set) var olderPage: Loadable<Int> = .idle
    /// Why the last send was refused before it left (e.g. empty text); `nil` after a good one.
    public private(set) var inputError: AppError?
    /// Why the last send failed (`nil` if it was cancelled or succeeded); the message stays as `.failed`.
    public private(set) var lastSendError: AppError?
    /// The outcome of the last mark-as-read.
    public private(set) var readState: Loadable<Bool> = .idle

    /// The conversation shown.
    public let conversationID: ConversationID
    private let service: any ChatService
    @ObservationIgnored private var live: AsyncStream<Message>?

    /// Creates the view model for one conversation.
    public init(service: any ChatService, conversationID: ConversationID) {
        self.service = service
        self.conversationID = conversationID
    }

    /// Loads the newest `limit` messages, or the `limit` before `before`.
    public func open(limit: Int = 50, before: MessageID? = nil) async {
        timeline = .loading
        timeline = await .from { [service, conversationID] in
            let page = if let before {
                try await service.messages(in: conversationID, before: before, limit: limit)
            } else {
                try await service.latestMessages(in: conversationID, limit: limit)
            }
            return Timeline(messages: page.messages, hasOlder: page.hasOlder)
        }
    }

    /// Subscribes to new messages, then loads the newest `limit`. Call `listen()` next, so that
    /// nothing sent in between is missed.
    public func start(limit: Int = 50) async {
        do {
            live = try await service.liveMessages(in: conversationID)
        } catch {
            timeline = await .from { throw error }
            return
        }
        await open(limit: limit)
    }

    /// Adds live messages until the calling task is cancelled. Does nothing before `start()`.
    public func listen() async {
        guard let live, timeline.value != nil else { return }
        self.live = nil
        for await message in live { receive(message) }
    }

    /// Pages in up to `limit` older messages.
    public func loadOlder(limit: Int = 50) async {
        guard var current = timeline.value else { return }
        guard current.hasOlder, let oldest = current.oldestStored else {
            olderPage = .loaded(0)
            return
        }
        olderPage = .loading
        olderPage = await .from { [service, conversationID] in
            let page = try await service.messages(in: conversationID, before: oldest.id, limit: limit)
            current.messages.insert(contentsOf: page.messages, at: 0)
            current.hasOlder = page.hasOlder
            return page.messages.count
        }
        if olderPage.value != nil { timeline = .loaded(current) }
    }

    /// Sends text: it shows at once as pending, then as sent or failed. Text that breaks the
    /// rules is refused with `inputError` and nothing is sent. A caller that retries on its own
    /// (a script) passes the same `id` each time: the message is stored once.
    public func send(_ text: String, id: MessageID = .random()) async {
        do {
            let text = try Validation.messageText(text)
            inputError = nil
            await deliver(id, text: text)
        } catch {
            inputError = AppError(error)
        }
    }

    /// Sends a failed message again with the same id (so it cannot be stored twice).
    public func retry(_ messageID: MessageID) async {
        guard let failed = timeline.value?.messages.first(where: { $0.id == messageID && $0.state == .failed }) else { return }
        await deliver(failed.id, text: failed.text)
    }

    /// Marks the conversation read.
    public func markRead() async {
        readState = .loading
        readState = await .from { [service, conversationID] in
            try await service.markRead(conversationID)
            return true
        }
    }

    /// The newest failed send, if any: what `/retry` resends.
    public var lastFailed: Message? { timeline.value?.messages.last { $0.state == .failed } }

    private func deliver(_ id: MessageID, text: String) async {
        let placeholder = Message(id: id, conversationID: conversationID, senderID: UserID(""), text: text,
                                  sentAt: .now, state: .pending)
        update { $0.upsert(placeholder) }
        do {
            receive(try await service.send(id: id, text: text, to: conversationID))
            lastSendError = nil
        } catch {
            var failed = placeholder
            failed.state = .failed
            update { $0.upsert(failed) }
            lastSendError = error is CancellationError ? nil : AppError(error)
        }
    }

    private func receive(_ message: Message) {
        update { $0.upsert(message) }
    }

    private func update(_ change: (inout Timeline) -> Void) {
        var current = timeline.value ?? Timeline()
        change(&current)
        timeline = .loaded(current)
    }
}
