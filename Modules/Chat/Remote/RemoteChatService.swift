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
    public nonisolated(nonsending) func send(
        id: MessageID, text: String, to conversationID: ConversationID, replyTo: MessageID?, attachments: [FileID]
    ) async throws
        -> Message
    {
        // Files go by HTTP: the socket's send frame carries text alone.
        if attachments.isEmpty,
            let frame = await connection.request(
                ChatSocket.SendFrame(id: id, conversation: conversationID, text: text, replyTo: replyTo), id: id.rawValue, as: caller),
            let reply = try? WireFormat.decoder().decode(ChatSocket.SendReply.self, from: frame)
        {
            return try reply.stored()
        }
        return try await connection.call(
            ChatAPI.send, path: .init(conversation: conversationID, message: id),
            body: SendRequest(text: text, replyTo: replyTo, attachments: attachments), as: caller)
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

    private func page(_ conversationID: ConversationID, query: [QueryParameter: String]) async throws -> MessagePage {
        try await connection.call(ChatAPI.history, path: .init(conversation: conversationID), query: query, body: NoContent(), as: caller).page
    }
}
