import Auth
import AuthAPI
import Kernel
import RemoteClient

/// Reporting messages to the MessageAI server's admins, as one caller.
public struct RemoteReportService: ReportService {
    private let connection: RemoteConnection
    private let caller: Caller

    /// Creates the service for `caller` over the process's connection.
    public init(connection: RemoteConnection, caller: Caller) {
        self.connection = connection
        self.caller = caller
    }

    public func report(_ messageID: MessageID, in conversationID: ConversationID, reason: String) async throws -> MessageReport {
        try await connection.call(
            AdminAPI.report, path: .init(conversation: conversationID, message: messageID), body: ReportRequest(reason: reason), as: caller)
    }
}
