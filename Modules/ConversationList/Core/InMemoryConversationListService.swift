import Foundation
import Kernel

/// One caller's view of the memory backend's conversations.
public struct InMemoryConversationListService: ConversationListService {
    private let store: InMemoryConversationStore
    private let caller: Caller

    /// Creates the service for `caller` over the shared store.
    public init(store: InMemoryConversationStore, caller: Caller) {
        self.store = store
        self.caller = caller
    }

    public func conversations() async throws -> [ConversationSummary] {
        let me = try await authorize()
        return try await store.builder.summaries(of: await store.conversations(of: me), for: me)
    }

    public func startDirect(with userID: UserID) async throws -> ConversationSummary {
        let me = try await authorize()
        try await store.builder.checkDirect(from: me, with: userID)
        return try await store.builder.summary(of: await store.direct(between: me, and: userID), for: me)
    }

    public func createGroup(title: String, memberIDs: [UserID]) async throws -> ConversationSummary {
        let me = try await authorize()
        let (title, members) = try await store.builder.checkGroup(title: title, creator: me, adding: memberIDs)
        return try await store.builder.summary(of: await store.insert(title: title, members: members), for: me)
    }

    public func changes() async throws -> AsyncStream<Void> {
        let me = try await caller.id()
        let createdStream = await store.createdConversations()
        let activityStream = try await store.activity.activityChanges()
        return AsyncStream { continuation in
            let forwarders = [
                Task {
                    for await conversation in createdStream where conversation.memberIDs.contains(me) { continuation.yield() }
                },
                Task {
                    for await _ in activityStream { continuation.yield() }
                },
            ]
            continuation.onTermination = { _ in forwarders.forEach { $0.cancel() } }
        }
    }

    private func authorize() async throws -> UserID {
        try await store.conditions.apply()
        return try await caller.id()
    }
}
