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

    /// Ticks on every change the server reports, and after each reconnection (what changed
    /// while the socket was down is unknown, so readers reload).
    public func changes() async throws -> AsyncStream<Void> {
        try await connection.events(ConversationsChanged.self, as: caller, resync: ConversationsChanged()).mapped { _ in () }
    }
}
