import Kernel
import Observation

/// One conversation: history, paging back, live messages, sending with pending/sent/failed
/// states and retry, marking read, read receipts. Who is typing is `TypingViewModel`'s.
@MainActor
@Observable
public final class ChatViewModel {
    /// The messages shown.
    public private(set) var timeline: Loadable<Timeline> = .idle
    /// The last page-back (`/more`): how many older messages arrived.
    public private(set) var olderPage: Loadable<Int> = .idle
    /// Why the last send was refused before it left (e.g. empty text); `nil` after a good one.
    public private(set) var inputError: AppError?
    /// Why the last send failed (`nil` if it was cancelled or succeeded); the entry stays as failed.
    public private(set) var lastSendError: AppError?
    /// The outcome of the last mark-as-read.
    public private(set) var readState: Loadable<Bool> = .idle
    /// Why the last edit or deletion was refused; `nil` after one that worked.
    public private(set) var changeError: AppError?
    /// How far the other members have read (`ChatService.receipts`), kept current while listening.
    public private(set) var receipts: Loadable<[ReadReceipt]> = .idle

    /// The conversation shown.
    public let conversationID: ConversationID
    private let service: any ChatService
    private let events: any EventStreamService
    private let outbox: Outbox?
    @ObservationIgnored private var live: AsyncStream<UserEvent>?
    @ObservationIgnored private var outcomes: AsyncStream<Outbox.Outcome>?
    /// The files of sends that failed, by message: what `retry` sends them with again.
    @ObservationIgnored private var failedFiles: [MessageID: [FileID]] = [:]

    /// Creates the view model for one conversation; with `outbox`, sends the server cannot take
    /// are kept there instead of failing.
    public init(service: any ChatService, events: any EventStreamService, conversationID: ConversationID, outbox: Outbox? = nil) {
        self.service = service
        self.events = events
        self.conversationID = conversationID
        self.outbox = outbox
    }

    /// Loads the newest `limit` messages (and the outbox's for this conversation, queued after
    /// them), or the `limit` before `before`.
    public func open(limit: Int = 50, before: MessageID? = nil) async {
        timeline = .loading
        timeline = await .from { [service, conversationID, outbox] in
            if let before {
                let page = try await service.messages(in: conversationID, before: before, limit: limit)
                return Timeline(messages: page.messages, hasOlder: page.hasOlder)
            }
            let page = try await service.latestMessages(in: conversationID, limit: limit)
            let stored = Set(page.messages.map(\.id))
            let queued = (try? await outbox?.messages())?.filter { $0.conversationID == conversationID && !stored.contains($0.id) } ?? []
            return Timeline(
                messages: page.messages, sending: queued.map { Timeline.Entry(sending: $0.id, text: $0.text, sentAt: $0.sentAt, delivery: .queued) },
                hasOlder: page.hasOlder)
        }
    }

    /// Subscribes to new messages and to changes of messages, then loads the newest `limit`.
    /// Call `listen()` next, so that nothing sent in between is missed.
    public func start(limit: Int = 50) async {
        do {
            let conversationID = conversationID
            live = try await events.liveEvents().compactMapped { event in
                if case .change(let change, _) = event, change.kind == .readMarkerMoved {
                    return change.conversationID == conversationID ? event : nil
                }
                return event.messageConversationID == conversationID ? event : nil
            }
            outcomes = await outbox?.outcomes()
        } catch {
            timeline = await .from { throw error }
            return
        }
        await open(limit: limit)
    }

    /// Adds live messages, and what becomes of the outbox's, until the calling task is
    /// cancelled. Does nothing before `start()`.
    public func listen() async {
        guard let live, timeline.value != nil else { return }
        let outcomes = outcomes
        (self.live, self.outcomes) = (nil, nil)
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await event in live {
                    switch event {
                    case .message(let message): await self.receive(message)
                    case .messageChanged(_, let message, _): await self.replace(message)
                    case .reacted(let reactions, _): await self.react(reactions)
                    case .change: await self.loadReceipts()
                    }
                }
            }
            if let outcomes {
                group.addTask { for await outcome in outcomes { await self.settle(outcome) } }
            }
        }
    }

    /// Pages in up to `limit` older messages; past `Timeline.maxStored`, the newest are let go
    /// of (`Timeline.hasNewer`).
    public func loadOlder(limit: Int = 50) async {
        guard let shown = timeline.value else { return }
        guard shown.hasOlder, let oldest = shown.oldestStored else {
            olderPage = .loaded(0)
            return
        }
        olderPage = .loading
        var page: MessagePage?
        olderPage = await .from { [service, conversationID] in
            let older = try await service.messages(in: conversationID, before: oldest.id, limit: limit)
            page = older
            return older.messages.count
        }
        // Onto the timeline as it is now: live messages may have come while the page was read.
        guard let page, var current = timeline.value else { return }
        current.entries.insert(contentsOf: page.messages.map(Timeline.Entry.init), at: 0)
        current.hasOlder = page.hasOlder
        current.keepingWindow()
        timeline = .loaded(current)
    }

    /// Sends text: it shows at once as pending, then as sent or failed. Text that breaks the
    /// rules is refused with `inputError` and nothing is sent. A caller that retries on its own
    /// (a script) passes the same `id` each time: the message is stored once. With `replyTo`
    /// it answers that message (kept in the outbox like any other while the server is away).
    /// With `attachments` (files uploaded for `id` first, Files) it carries them and its text is
    /// their caption, which may be empty; such a send is never kept in the outbox: its files
    /// need the server anyway.
    public func send(_ text: String, id: MessageID = .random(), replyTo: MessageID? = nil, attachments: [FileID] = []) async {
        do {
            let text = try ChatRules.text(text, carrying: attachments)
            inputError = nil
            await deliver(id, text: text, replyTo: replyTo, attachments: attachments)
        } catch {
            inputError = AppError(error)
        }
    }

    /// Sends a failed message again with the same id (so it cannot be stored twice).
    public func retry(_ messageID: MessageID) async {
        guard let failed = timeline.value?.entries.first(where: { $0.id == messageID && $0.isFailed }) else { return }
        await deliver(failed.id, text: failed.text, attachments: failedFiles[failed.id] ?? [])
    }

    /// Gives the user's message `id` the text `text`; the timeline shows the new version. Returns
    /// the message as it is now, or `nil` with `changeError` saying why it was refused.
    @discardableResult
    public func edit(_ id: MessageID, to text: String) async -> Message? {
        await change { [service, conversationID] in try await service.edit(id, in: conversationID, text: text) }
    }

    /// Deletes the user's message `id` for everyone; the timeline shows its tombstone. Returns
    /// the tombstone, or `nil` with `changeError` saying why it was refused.
    @discardableResult
    public func delete(_ id: MessageID) async -> Message? {
        await change { [service, conversationID] in try await service.delete(id, in: conversationID) }
    }

    /// Adds the user's reaction `emoji` to message `id`, or removes it with `adding` false.
    /// Returns the message as it is now, or `nil` with `changeError` saying why it was refused.
    @discardableResult
    public func react(to id: MessageID, with emoji: String, adding: Bool) async -> Message? {
        await change { [service, conversationID] in try await service.react(to: id, in: conversationID, with: emoji, adding: adding) }
    }

    /// Loads how far the other members have read.
    public func loadReceipts() async {
        let loaded: Loadable<[ReadReceipt]> = await .from { [service, conversationID] in try await service.receipts(in: conversationID) }
        // A refresh that fails keeps what was shown.
        if loaded.value != nil || receipts.value == nil { receipts = loaded }
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
    public var lastFailed: Timeline.Entry? { timeline.value?.entries.last { $0.isFailed } }

    private func deliver(_ id: MessageID, text: String, replyTo: MessageID? = nil, attachments: [FileID] = []) async {
        update { $0.upsert(Timeline.Entry(sending: id, text: text, delivery: .pending)) }
        if !attachments.isEmpty { failedFiles[id] = attachments }
        do {
            // Behind messages already kept, so that they go out in the order typed.
            if let outbox, attachments.isEmpty, await !outbox.isEmpty() { return try await keep(id, text: text, replyTo: replyTo, in: outbox) }
            receive(try await service.send(id: id, text: text, to: conversationID, replyTo: replyTo, attachments: attachments))
            failedFiles[id] = nil
            lastSendError = nil
        } catch let error as AppError where error.kind == .unavailable {
            guard let outbox, attachments.isEmpty else { return failed(id, text: text, error) }
            do {
                try await keep(id, text: text, replyTo: replyTo, in: outbox)
            } catch {
                failed(id, text: text, error)
            }
        } catch {
            failed(id, text: text, error)
        }
    }

    /// Keeps the send (a reply to `replyTo`, if given) in `outbox` (queued) and starts sending what it keeps.
    private func keep(_ id: MessageID, text: String, replyTo: MessageID?, in outbox: Outbox) async throws {
        let entry = try await outbox.keep(id: id, text: text, in: conversationID, replyTo: replyTo)
        update { $0.upsert(Timeline.Entry(sending: id, text: text, sentAt: entry.sentAt, delivery: .queued)) }
        lastSendError = nil
        await outbox.flush(through: service)
    }

    private func change(_ operation: @Sendable () async throws -> Message) async -> Message? {
        do {
            let message = try await operation()
            changeError = nil
            replace(message)
            return message
        } catch {
            changeError = AppError(error)
            return nil
        }
    }

    private func failed(_ id: MessageID, text: String, _ error: any Error) {
        update { $0.upsert(Timeline.Entry(sending: id, text: text, delivery: .failed(reason: nil))) }
        lastSendError = error is CancellationError ? nil : AppError(error)
    }

    /// Shows `message`, stored: in place of its entry, or after the others, unless the timeline
    /// let go of the newest (a message arriving then waits for `open`).
    private func receive(_ message: Message) {
        if let current = timeline.value, current.hasNewer, !current.entries.contains(where: { $0.id == message.id }) { return }
        update { $0.upsert(Timeline.Entry(message)) }
    }

    /// Shows `message` as it is now, if it is on the timeline (an edit of an older one changes
    /// nothing shown).
    private func replace(_ message: Message) {
        guard timeline.value?.entries.contains(where: { $0.id == message.id }) == true else { return }
        receive(message)
    }

    /// Shows the message of `reactions` with them, if it is on the timeline.
    private func react(_ reactions: MessageReactions) {
        guard let message = timeline.value?.entries.first(where: { $0.id == reactions.messageID })?.message else { return }
        receive(message.reacting(reactions))
    }

    /// What the outbox did with one of this conversation's kept messages.
    private func settle(_ outcome: Outbox.Outcome) {
        guard outcome.conversationID == conversationID else { return }
        switch outcome {
        case .sent(let message): receive(message)
        case .refused(let entry, let reason):
            update { $0.upsert(Timeline.Entry(sending: entry.id, text: entry.text, sentAt: entry.sentAt, delivery: .failed(reason: reason))) }
        }
    }

    private func update(_ change: (inout Timeline) -> Void) {
        var current = timeline.value ?? Timeline()
        change(&current)
        timeline = .loaded(current)
    }
}
