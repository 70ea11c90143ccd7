import Foundation
import Kernel

// arch-check: allow naming.in-memory-impl: StoredReportService over InMemoryReportStore is the in-memory one.
/// Reporting a message to the server's admins: what any member may do with a message of
/// another's they can read. Admins list and resolve reports through `AdminService`.
/// Implemented by `StoredReportService` and `RemoteReportService`.
public protocol ReportService: Sendable {
    /// Reports message `messageID` of `conversationID` for `reason` (1–500 characters); reporting
    /// it again is the first report.
    /// - Throws: as reading the message is refused; `.invalidInput` for a bad reason;
    ///   `.conflict` for a deleted message or one's own; `.rateLimited` past the budget.
    func report(_ messageID: MessageID, in conversationID: ConversationID, reason: String) async throws -> MessageReport
}

/// Reporting over a store, for one caller: the message read as the caller reads it, kept as it
/// is now, each report paid from the caller's budget of new conversations (few an hour), so that
/// nobody can bury the admins in reports.
public struct StoredReportService: ReportService {
    private let store: any ReportStore
    private let messages: any ReportedMessages
    private let caller: Caller
    private let clock: any WallClock
    private let budget: UsageBudget

    /// Creates the service for `caller` over `store`, reading messages through `messages`.
    public init(store: any ReportStore, messages: any ReportedMessages, caller: Caller, clock: any WallClock, budget: UsageBudget = .unlimited) {
        self.store = store
        self.messages = messages
        self.caller = caller
        self.clock = clock
        self.budget = budget
    }

    public func report(_ messageID: MessageID, in conversationID: ConversationID, reason: String) async throws -> MessageReport {
        let me = try await caller.id()
        let reason = try Validation.reason(reason)
        try budget.spend(.conversation, by: me)
        let message = try await messages.message(messageID, in: conversationID, readBy: me)
        return try await store.add(ReportRules.report(messageID, in: conversationID, as: message, by: me, reason: reason, at: clock.now()))
    }
}
