import Kernel

// arch-check: allow naming.service-impl: a decorator over whichever backend's ChatService that keeps unsendable messages in the device's outbox; not a backend of its own.
/// A chat service that keeps what cannot be sent because the server is unreachable in an
/// `Outbox` instead of failing: the message shows as queued, and goes out with the same id when
/// the server is back. Everything else is the wrapped service's.
public struct OutboxChatService: ChatService {
    private let base: any ChatService
    private let outbox: Outbox

    /// Wraps `base`; `outbox` keeps this device's unsent messages.
    public init(base: any ChatService, outbox: Outbox) {
        self.base = base
        self.outbox = outbox
    }

    /// Starts sending what an earlier run kept.
    public func resume() async {
        let base = base
        await outbox.flush { try await base.send(id: $0.id, text: $0.text, to: $0.conversationID) }
    }

    public func latestMessages(in conversationID: ConversationID, limit: Int) async throws -> MessagePage {
        let page = try await base.latestMessages(in: conversationID, limit: limit)
        let queued = try await outbox.messages().filter { $0.conversationID == conversationID && !page.messages.map(\.id).contains($0.id) }
        return MessagePage(messages: page.messages + queued, hasOlder: page.hasOlder)
    }

    public func messages(in conversationID: ConversationID, before messageID: MessageID, limit: Int) async throws -> MessagePage {
        try await base.messages(in: conversationID, before: messageID, limit: limit)
    }

    public nonisolated(nonsending) func send(id: MessageID, text: String, to conversationID: ConversationID) async throws -> Message {
        // Behind messages already kept, so that they go out in the order typed.
        guard await outbox.isEmpty() else { return try await keep(id: id, text: text, in: conversationID) }
        do {
            return try await base.send(id: id, text: text, to: conversationID)
        } catch let error as AppError where error.kind == .unavailable {
            return try await keep(id: id, text: text, in: conversationID)
        }
    }

    private func keep(id: MessageID, text: String, in conversationID: ConversationID) async throws -> Message {
        // Checked as the server would check it, so that only a reachable server's refusal (not
        // being a member any more, say) can fail it later.
        let text = try Validation.messageText(text)
        let queued = try await outbox.keep(Message(id: id, conversationID: conversationID, senderID: UserID(""), text: text, sentAt: .now))
        await resume()
        return queued
    }

    public func markRead(_ conversationID: ConversationID) async throws { try await base.markRead(conversationID) }

    /// The wrapped service's live messages, and the outbox's outcomes (sent or refused).
    public func liveMessages(in conversationID: ConversationID?) async throws -> AsyncStream<Message> {
        let live = try await base.liveMessages(in: conversationID)
        let outcomes = await outbox.outcomes().compactMapped { message in conversationID.map { message.conversationID == $0 } ?? true ? message : nil }
        return AsyncStream { continuation in
            let forwarders = [Task { for await message in live { continuation.yield(message) }; continuation.finish() },
                              Task { for await message in outcomes { continuation.yield(message) } }]
            continuation.onTermination = { _ in forwarders.forEach { $0.cancel() } }
        }
    }

    public func messages(after cursor: EventCursor, in conversationID: ConversationID?, limit: Int) async throws -> [Message] {
        try await base.messages(after: cursor, in: conversationID, limit: limit)
    }

    public func events(after cursor: EventCursor, limit: Int) async throws -> [UserEvent] { try await base.events(after: cursor, limit: limit) }

    public func liveEvents() async throws -> AsyncStream<UserEvent> { try await base.liveEvents() }

    public func newestCursor() async throws -> EventCursor? { try await base.newestCursor() }
}
