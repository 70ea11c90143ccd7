import Chat
import ChatAPI
import Foundation
import Kernel
import RemoteClient

/// The signed-in user's events through `messageai-server`: live over its events socket (one per
/// process, `RemoteConnection`), caught up over HTTP.
public struct RemoteEventStreamService: EventStreamService {
    private let connection: RemoteConnection
    private let caller: Caller

    /// Creates the service for `caller` over `connection`.
    public init(connection: RemoteConnection, caller: Caller) {
        self.connection = connection
        self.caller = caller
    }

    /// Subscribes first, then (for one conversation) checks that the caller may read it, so no
    /// message falls between the check and the subscription.
    public func liveMessages(in conversationID: ConversationID?) async throws -> AsyncStream<Message> {
        let messages = try await connection.frames(UserEvent.self, types: [UserEvent.messageType], as: caller).compactMapped(\.message)
        guard let conversationID else { return messages }
        // The newest message, read as the chat service reads history: refused unless the caller is a member.
        _ = try await RemoteChatService(connection: connection, caller: caller).latestMessages(in: conversationID, limit: 1)
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
}
