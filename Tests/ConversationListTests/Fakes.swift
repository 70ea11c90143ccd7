import ConversationList
import Foundation
import Kernel
import Synchronization
import TestSupport

struct FixedDirectory: UserDirectory {
    let names: [UserID: String]
    func displayNames(of ids: [UserID]) async throws -> [UserID: String] { names.filter { ids.contains($0.key) } }
}

/// A `FixedDirectory` that counts its look-ups.
final class CountingDirectory: UserDirectory {
    let names: [UserID: String]
    private let count = Mutex(0)
    var lookups: Int { count.withLock { $0 } }
    init(names: [UserID: String]) { self.names = names }
    func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
        count.withLock { $0 += 1 }
        return try await FixedDirectory(names: names).displayNames(of: ids)
    }
}

/// Activity a test sets by hand, with a tick per change.
final class ManualActivity: ActivitySource {
    private let values = Mutex<[ConversationID: ConversationActivity]>([:])
    private let ticks = Broadcaster<Void>()

    func set(_ activity: ConversationActivity, for id: ConversationID) {
        values.withLock { $0[id] = activity }
        ticks.send(())
    }

    func activity(of conversationIDs: [ConversationID], for reader: UserID) async throws -> [ConversationID: ConversationActivity] {
        values.withLock { $0.filter { conversationIDs.contains($0.key) } }
    }

    func activityChanges() async throws -> AsyncStream<Void> { ticks.subscribe() }
}

/// A list service whose pages pass a gate and hold nothing; it can do nothing else.
final class GatedListService: ConversationListService {
    let gate: CallGate
    init(_ gate: CallGate) { self.gate = gate }
    func conversations(limit: Int, after: ConversationID?) async throws -> ConversationPage {
        try await gate.pass()
        return ConversationPage(conversations: [], hasMore: false)
    }
    func startDirect(with userID: UserID) async throws -> ConversationSummary { throw Self.unused }
    func createGroup(title: String, memberIDs: [UserID]) async throws -> ConversationSummary { throw Self.unused }
    func invitations() async throws -> [Invitation] { throw Self.unused }
    func accept(_ conversationID: ConversationID) async throws -> ConversationSummary { throw Self.unused }
    func decline(_ conversationID: ConversationID) async throws { throw Self.unused }
    func leave(_ conversationID: ConversationID) async throws { throw Self.unused }
    func block(_ userID: UserID) async throws { throw Self.unused }
    func unblock(_ userID: UserID) async throws { throw Self.unused }
    func blockedUsers() async throws -> [UserID] { throw Self.unused }
    func chooseNotifications(_ level: NotificationLevel?, until: Date?, in conversationID: ConversationID) async throws { throw Self.unused }
    func changes() async throws -> AsyncStream<Void> { AsyncStream { $0.finish() } }

    private static let unused = AppError(.notFound, "no")
}

struct FixedClock: WallClock {
    let date: Date
    func now() -> Date { date }
}
