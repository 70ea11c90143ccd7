import Chat
import ChatAPI
import Foundation
import Kernel
import RemoteClient

/// One caller's messages on the MessageAI server.
public struct RemoteChatService: ChatService {
    private let connection: RemoteConnection
    private let caller: Caller

    /// Creates the service for `caller` over the process's connection.
    public init(connection: RemoteConnection, caller: Caller) {
        self.connection = connection
        self.caller = caller
    }

    public func latestMessages(in conversationID: ConversationID, limit: Int) async throws -> MessagePage {
        try await page(conversationID, query: [ChatAPI.Query.pageLimit: String(limit)])
    }

    public func messages(in conversationID: ConversationID, before messageID: MessageID, limit: Int) async throws -> MessagePage {
        try await page(conversationID, query: [ChatAPI.Query.pageLimit: String(limit), ChatAPI.Query.before: messageID.rawValue])
    }

    /// Sends over the events socket when this process has it open (no HTTP request of its
    /// own), over HTTP otherwise or when the socket gives no reply: the id makes a repeated send
    /// harmless. A reply to a message goes the same way.
    public nonisolated(nonsending) func send(id: MessageID, text: String, to conversationID: ConversationID, replyTo: MessageID?) async throws
        -> Message
    {
        if let frame = await connection.request(
            ChatSocket.SendFrame(id: id, conversation: conversationID, text: text, replyTo: replyTo), id: id.rawValue, as: caller),
            let reply = try? WireFormat.decoder().decode(ChatSocket.SendReply.self, from: frame)
        {
            return try reply.stored()
        }
        return try await connection.call(
            ChatAPI.send, path: .init(conversation: conversationID, message: id),
            body: SendRequest(text: text, replyTo: replyTo), as: caller)
    }

    public func edit(_ messageID: MessageID, in conversationID: ConversationID, text: String) async throws -> Message {
        try await connection.call(
            ChatAPI.edit, path: .init(conversation: conversationID, message: messageID), body: EditRequest(text: text), as: caller)
    }

    public func delete(_ messageID: MessageID, in conversationID: ConversationID) async throws -> Message {
        try await connection.call(ChatAPI.delete, path: .init(conversation: conversationID, message: messageID), body: NoContent(), as: caller)
    }

    public func react(to messageID: MessageID, in conversationID: ConversationID, with emoji: String, adding: Bool) async throws -> Message {
        try await connection.call(
            ChatAPI.react, path: .init(conversation: conversationID, message: messageID),
            body: ReactRequest(emoji: emoji, remove: !adding), as: caller)
    }

    public func receipts(in conversationID: ConversationID) async throws -> [ReadReceipt] {
        try await connection.call(ChatAPI.receipts, path: .init(conversation: conversationID), body: NoContent(), as: caller).receipts
    }

    public func setReceiptsPrivate(_ isPrivate: Bool) async throws {
        _ = try await connection.call(ChatAPI.receiptPrivacy, body: ReceiptPrivacy(private: isPrivate), as: caller)
    }

    public func markRead(_ conversationID: ConversationID) async throws {
        _ = try await connection.call(ChatAPI.markRead, path: .init(conversation: conversationID), body: NoContent(), as: caller)
    }

    /// Subscribes first, then (for one conversation) checks that the caller may read it, so no
    /// message falls between the check and the subscription.
    public func liveMessages(in conversationID: ConversationID?) async throws -> AsyncStream<Message> {
        let messages = try await connection.frames(UserEvent.self, types: [UserEvent.messageType], as: caller).compactMapped(\.message)
        guard let conversationID else { return messages }
        _ = try await latestMessages(in: conversationID, limit: 1)
        return messages.compactMapped { $0.conversationID == conversationID ? $0 : nil }
    }

    public func messages(after cursor: EventCursor, in conversationID: ConversationID?, limit: Int) async throws -> [Message] {
        var query = [ChatAPI.Query.afterMessage: cursor.description, ChatAPI.Query.catchUpLimit: String(min(max(limit, 1), ChatRules.catchUpLimit))]
        query[ChatAPI.Query.conversation] = conversationID?.rawValue
        return try await connection.call(ChatAPI.catchUp, query: query, body: NoContent(), as: caller).messages
    }

    public func events(after cursor: EventCursor, limit: Int) async throws -> [UserEvent] {
        let query = [ChatAPI.Query.afterEvent: cursor.description, ChatAPI.Query.catchUpLimit: String(min(max(limit, 1), ChatRules.catchUpLimit))]
        return try await connection.call(ChatAPI.eventLog, query: query, body: NoContent(), as: caller).events
    }

    public func liveEvents() async throws -> AsyncStream<UserEvent> {
        try await connection.frames(UserEvent.self, types: UserEvent.types, as: caller)
    }

    public func liveTrouble() async throws -> AsyncStream<String?> {
        try await connection.frames(
            EventSocketProtocol.Frame<EventSocketProtocol.Trouble>.self, types: [EventSocketProtocol.Trouble.type], as: caller
        )
        .mapped(\.event.reason)
    }

    public func newestCursor() async throws -> EventCursor? {
        try await connection.call(ChatAPI.newest, body: NoContent(), as: caller).cursor
    }

    private func page(_ conversationID: ConversationID, query: [QueryParameter: String]) async throws -> MessagePage {
        try await connection.call(ChatAPI.history, path: .init(conversation: conversationID), query: query, body: NoContent(), as: caller).page
    }
}
