import Kernel
import Observation

/// Reporting a message of another member's to the server's admins.
@MainActor
@Observable
public final class ReportViewModel {
    /// The report made, as kept.
    public private(set) var reported: Loadable<MessageReport> = .idle

    private let service: any ReportService

    /// Creates the view model over the caller's reporting.
    public init(service: any ReportService) { self.service = service }

    /// Reports message `messageID` of `conversationID` for `reason`.
    public func report(_ messageID: MessageID, in conversationID: ConversationID, reason: String) async {
        reported = .loading
        reported = await .from { try await service.report(messageID, in: conversationID, reason: reason) }
    }
}
