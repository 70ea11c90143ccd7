import Foundation
import Kernel

/// Messages typed while the server could not be reached: kept (in an `OutboxStore`, so they
/// survive the process), sent in order with their own ids once it can be, so none is stored
/// twice; the server's refusals come back as outcomes with the reason. Passing failures
/// (unreachable, rate-limited, a server error) are tried again later; a session that has ended
/// keeps them for the next sign-in.
public actor Outbox {
    /// A kept message: what the outbox file holds for each.
    public struct Entry: Codable, Equatable, Sendable {
        /// The message's id, sent with it so that it is stored once.
        public let id: MessageID
        /// Where it goes.
        public let conversationID: ConversationID
        /// Who typed it: the store may hold several users' of one profile.
        public let senderID: UserID
        /// The text, checked as the server would check it.
        public let text: String
        /// When it was typed.
        public let sentAt: Date
        /// The message it answers, for a reply (absent in files of earlier versions).
        public let replyTo: MessageID?

        /// An entry.
        public init(id: MessageID, conversationID: ConversationID, senderID: UserID, text: String, sentAt: Date, replyTo: MessageID? = nil) {
            self.id = id
            self.conversationID = conversationID
            self.senderID = senderID
            self.text = text
            self.sentAt = sentAt
            self.replyTo = replyTo
        }
    }

    /// What became of a kept message.
    public enum Outcome: Equatable, Sendable {
        /// The server stored it.
        case sent(Message)
        /// The server refused it, for `reason`; it is no longer kept.
        case refused(Entry, reason: String)

        /// The conversation of the message.
        public var conversationID: ConversationID {
            switch self {
            case .sent(let message): message.conversationID
            case .refused(let entry, _): entry.conversationID
            }
        }
    }

    private let store: any OutboxStore
    /// Whose messages this outbox sends: the store may hold other users' of the same profile,
    /// which wait for them to sign in again.
    private let owner: UserID
    private var flusher: Task<Void, Never>?
    private let results = Broadcaster<Outcome>()
    private var emptied: [CheckedContinuation<Void, Never>] = []

    /// The outbox of `owner` over `store`.
    public init(store: any OutboxStore, owner: UserID) {
        self.store = store
        self.owner = owner
    }

    /// The owner's kept messages, oldest first, as the store has them now (another process of
    /// the profile may have kept or sent some).
    public func messages() throws -> [Entry] { try store.load().filter { $0.senderID == owner } }

    /// Whether messages are kept: a new one goes behind them, to keep their order.
    public func isEmpty() -> Bool { (try? messages().isEmpty) ?? true }

    /// Keeps `text` (already checked) as message `id` of the owner's to `conversationID`
    /// (answering `replyTo`, if given) until it is sent.
    public func keep(id: MessageID, text: String, in conversationID: ConversationID, replyTo: MessageID? = nil) throws -> Entry {
        let entry = Entry(id: id, conversationID: conversationID, senderID: owner, text: text, sentAt: .now, replyTo: replyTo)
        try store.update { kept in kept.filter { $0.id != id } + [entry] }
        return entry
    }

    /// What became of kept messages: each as stored, or refused with the server's reason.
    public func outcomes() -> AsyncStream<Outcome> { results.subscribe() }

    /// Starts sending the kept messages through `chat`, unless it runs already; while the
    /// server cannot be reached it tries again after a random wait up to 0.5 s, doubling to 20 s.
    public func flush(through chat: any ChatService) {
        guard flusher == nil else { return }
        flusher = Task { await self.sendAll(through: chat) }
    }

    /// Waits until nothing is kept, or for `limit`; returns whether nothing is kept.
    public func drained(within limit: Duration) async -> Bool {
        if isEmpty() { return true }
        let timer = Task {
            try await Task.sleep(for: limit)
            self.wakeWaiters()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { emptied.append($0) }
        return isEmpty()
    }

    private func sendAll(through chat: any ChatService) async {
        var failures = 0
        while let next = (try? messages())?.first {
            do {
                results.send(.sent(try await chat.send(id: next.id, text: next.text, to: next.conversationID, replyTo: next.replyTo)))
                remove(next)
                failures = 0
            } catch let error as AppError where [.unavailable, .rateLimited, .internal].contains(error.kind) {
                // For now: try again later.
                failures += 1
                try? await Task.sleep(for: Backoff.delay(afterFailures: failures))
            } catch let error as AppError where error.kind == .notSignedIn {
                // Kept for when this profile signs in again.
                break
            } catch {
                results.send(.refused(next, reason: AppError(error).message))
                remove(next)
            }
            if Task.isCancelled { break }
        }
        flusher = nil
        wakeWaiters()
    }

    private func remove(_ message: Entry) {
        try? store.update { kept in kept.filter { $0.id != message.id } }
    }

    private func wakeWaiters() {
        let waiting = emptied
        emptied = []
        waiting.forEach { $0.resume() }
    }
}
