import Foundation
import Kernel

/// Conversations kept in process memory: the memory backend and unit tests.
public actor InMemoryConversationListService: ConversationListService, ConversationDirectory {
    private var conversations: [ConversationID: Conversation]
    private let builder: SummaryBuilder
    private let activity: any ActivitySource
    private let sessions: any SessionStore
    private let clock: any WallClock
    private let conditions: SimulatedConditions
    private let created = Broadcaster<Conversation>()

    /// Creates the service with seeded conversations.
    public init(
        conversations: [Conversation] = [],
        users: any UserDirectory,
        activity: any ActivitySource,
        sessions: any SessionStore,
        clock: any WallClock = SystemWallClock(),
        conditions: SimulatedConditions = .none
    ) {
        self.conversations = Dictionary(uniqueKeysWithValues: conversations.map { ($0.id, $0) })
        builder = SummaryBuilder(users: users, activity: activity)
        self.activity = activity
        self.sessions = sessions
        self.clock = clock
        self.conditions = conditions
    }

    public func conversations() async throws -> [ConversationSummary] {
        try await conditions.apply()
        let me = try sessions.requireSession().userID
        return try await builder.summaries(of: conversations.values.filter { $0.memberIDs.contains(me) }, for: me)
    }

    public func startDirect(with userID: UserID) async throws -> ConversationSummary {
        try await conditions.apply()
        let me = try sessions.requireSession().userID
        try await builder.checkDirect(from: me, with: userID)
        let existing = conversations.values.first { !$0.isGroup && Set($0.memberIDs) == [me, userID] }
        return try await summary(of: existing ?? insert(title: nil, members: [me, userID]), for: me)
    }

    public func createGroup(title: String, memberIDs: [UserID]) async throws -> ConversationSummary {
        try await conditions.apply()
        let me = try sessions.requireSession().userID
        let (title, members) = try await builder.checkGroup(title: title, creator: me, adding: memberIDs)
        return try await summary(of: insert(title: title, members: members), for: me)
    }

    public func changes() async throws -> AsyncStream<Void> {
        let me = try sessions.requireSession().userID
        let createdStream = created.subscribe()
        let activityStream = try await activity.activityChanges()
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

    public func members(of conversationID: ConversationID) async throws -> [UserID]? {
        conversations[conversationID]?.memberIDs
    }

    private func insert(title: String?, members: [UserID]) -> Conversation {
        let conversation = Conversation(id: .random(), title: title, memberIDs: members, createdAt: clock.now())
        conversations[conversation.id] = conversation
        created.send(conversation)
        return conversation
    }

    private func summary(of conversation: Conversation, for reader: UserID) async throws -> ConversationSummary {
        try await builder.summaries(of: [conversation], for: reader)[0]
    }
}
