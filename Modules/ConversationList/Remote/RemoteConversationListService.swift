import ConversationList
import ConversationListAPI
import Foundation
import Kernel
import RemoteClient

/// One caller's conversation list on the MessageAI server.
public struct RemoteConversationListService: ConversationListService {
    private let connection: RemoteConnection
    private let caller: Caller

    /// Creates the service for `caller` over the process's connection.
    public init(connection: RemoteConnection, caller: Caller) {
        self.connection = connection
        self.caller = caller
    }

    public func conversations(limit: Int, after: ConversationID?) async throws -> ConversationPage {
        try ConversationRules.checkPageLimit(limit)
        var query = [ConversationListAPI.Query.pageLimit: String(limit)]
        query[ConversationListAPI.Query.after] = after?.rawValue
        return try await connection.call(ConversationListAPI.list, query: query, body: NoContent(), as: caller).page
    }

    public func startDirect(with userID: UserID) async throws -> ConversationSummary {
        try await connection.call(ConversationListAPI.direct, body: DirectRequest(userID: userID), as: caller)
    }

    public func createGroup(title: String, memberIDs: [UserID]) async throws -> ConversationSummary {
        try await connection.call(ConversationListAPI.group, body: GroupRequest(title: title, memberIDs: memberIDs), as: caller)
    }

    public func invitations() async throws -> [Invitation] {
        try await connection.call(ConversationListAPI.invitations, body: NoContent(), as: caller).invitations
    }

    public func accept(_ conversationID: ConversationID) async throws -> ConversationSummary {
        try await connection.call(ConversationListAPI.accept, path: .init(conversation: conversationID), body: NoContent(), as: caller)
    }

    public func decline(_ conversationID: ConversationID) async throws {
        _ = try await connection.call(ConversationListAPI.decline, path: .init(conversation: conversationID), body: NoContent(), as: caller)
    }

    public func chooseNotifications(_ level: NotificationLevel?, until: Date?, in conversationID: ConversationID) async throws {
        _ = try await connection.call(
            ConversationListAPI.notifications, path: .init(conversation: conversationID), body: NotificationsRequest(level: level, until: until),
            as: caller)
    }

    public func leave(_ conversationID: ConversationID) async throws {
        _ = try await connection.call(ConversationListAPI.leave, path: .init(conversation: conversationID), body: NoContent(), as: caller)
    }

    public func block(_ userID: UserID) async throws {
        _ = try await connection.call(ConversationListAPI.block, path: .init(user: userID), body: NoContent(), as: caller)
    }

    public func unblock(_ userID: UserID) async throws {
        _ = try await connection.call(ConversationListAPI.unblock, path: .init(user: userID), body: NoContent(), as: caller)
    }

    public func blockedUsers() async throws -> [UserID] {
        try await connection.call(ConversationListAPI.blocks, body: NoContent(), as: caller).userIDs
    }

    /// Ticks on every event of the caller's (each may change the list: a message, a new
    /// conversation, an invitation, someone joining or leaving, a read marker, a name) and after
    /// each reconnection, so readers reload.
    public func changes() async throws -> AsyncStream<Void> { try await connection.ticks(as: caller) }
}
