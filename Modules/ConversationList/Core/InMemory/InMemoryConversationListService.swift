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

    public func conversations(limit: Int, after: ConversationID?) async throws -> ConversationPage {
        try ConversationRules.checkPageLimit(limit)
        return try ConversationRules.page(of: try await conversations(), limit: limit, after: after)
    }

    public func conversations() async throws -> [ConversationSummary] {
        let me = try await authorize()
        return try await store.builder.summaries(of: await store.conversations(of: me), for: me)
    }

    public func startDirect(with userID: UserID) async throws -> ConversationSummary {
        let me = try await authorize()
        try await store.builder.checkDirect(from: me, with: userID)
        let (conversation, notInvited) = await store.direct(between: me, and: userID)
        return try await store.builder.summary(of: conversation, for: me).started(notInviting: notInvited)
    }

    public func createGroup(title: String, memberIDs: [UserID]) async throws -> ConversationSummary {
        let me = try await authorize()
        let (title, members) = try await store.builder.checkGroup(title: title, creator: me, adding: memberIDs)
        let (conversation, notInvited) = await store.start(title: title, by: me, with: Array(members.dropFirst()))
        return try await store.builder.summary(of: conversation, for: me).started(notInviting: notInvited)
    }

    public func invitations() async throws -> [Invitation] {
        let me = try await authorize()
        return try await store.builder.invitations(to: await store.invitations(of: me), for: me)
    }

    public func accept(_ conversationID: ConversationID) async throws -> ConversationSummary {
        let me = try await authorize()
        return try await store.builder.summary(of: try await store.accept(conversationID, by: me), for: me)
    }

    public func decline(_ conversationID: ConversationID) async throws {
        try await store.decline(conversationID, by: try await authorize())
    }

    public func leave(_ conversationID: ConversationID) async throws {
        try await store.leave(conversationID, by: try await authorize())
    }

    public func block(_ userID: UserID) async throws {
        let me = try await authorize()
        try await store.builder.checkBlock(by: me, of: userID)
        await store.block(userID, by: me)
    }

    public func unblock(_ userID: UserID) async throws {
        await store.unblock(userID, by: try await authorize())
    }

    public func blockedUsers() async throws -> [UserID] {
        await store.blocks(of: try await authorize())
    }

    public func changes() async throws -> AsyncStream<Void> {
        let me = try await caller.id()
        let listChanges = await store.changes()
        let activityStream = try await store.activity.activityChanges()
        return AsyncStream { continuation in
            let forwarders = [
                Task {
                    for await concerned in listChanges where concerned.contains(me) { continuation.yield() }
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
