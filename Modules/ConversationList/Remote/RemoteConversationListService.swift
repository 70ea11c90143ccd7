import ConversationList
import ConversationListAPI
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

    public func conversations() async throws -> [ConversationSummary] {
        try await connection.call(ConversationListAPI.list, body: NoContent(), as: caller).conversations
    }

    public func startDirect(with userID: UserID) async throws -> ConversationSummary {
        try await connection.call(ConversationListAPI.direct, body: DirectRequest(userID: userID), as: caller)
    }

    public func createGroup(title: String, memberIDs: [UserID]) async throws -> ConversationSummary {
        try await connection.call(ConversationListAPI.group, body: GroupRequest(title: title, memberIDs: memberIDs), as: caller)
    }

    /// Ticks on every event of the caller's (each may change the list: a message, a new
    /// conversation, a read marker, a name) and after each reconnection, so readers reload.
    public func changes() async throws -> AsyncStream<Void> { try await connection.ticks(as: caller) }
}
