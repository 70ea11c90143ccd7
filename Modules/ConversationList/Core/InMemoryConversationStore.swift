import Foundation
import Kernel

/// The conversations of the memory backend, shared by every caller's
/// `InMemoryConversationListService`.
public actor InMemoryConversationStore: ConversationDirectory {
    private var conversations: [ConversationID: Conversation]
    let builder: SummaryBuilder
    let activity: any ActivitySource
    let conditions: SimulatedConditions
    private let clock: any WallClock
    private let created = Broadcaster<Conversation>()
    private let journal: (any ChangeJournal)?

    /// Creates the store with seeded conversations and the list's two ports; new conversations
    /// are recorded in `journal`, when given.
    public init(
        conversations: [Conversation] = [],
        users: any UserDirectory,
        activity: any ActivitySource,
        journal: (any ChangeJournal)? = nil,
        clock: any WallClock = SystemWallClock(),
        conditions: SimulatedConditions = .none
    ) {
        self.journal = journal
        self.conversations = Dictionary(uniqueKeysWithValues: conversations.map { ($0.id, $0) })
        builder = SummaryBuilder(users: users, activity: activity)
        self.activity = activity
        self.clock = clock
        self.conditions = conditions
    }

    public func members(of conversationID: ConversationID) async throws -> [UserID]? {
        conversations[conversationID]?.memberIDs
    }

    public func contacts(of user: UserID) async throws -> [UserID] {
        Array(Set(conversations(of: user).flatMap(\.memberIDs)).subtracting([user]))
    }

    func conversations(of member: UserID) -> [Conversation] {
        conversations.values.filter { $0.memberIDs.contains(member) }
    }

    func conversation(_ id: ConversationID) -> Conversation? { conversations[id] }

    func direct(between me: UserID, and other: UserID) async -> Conversation {
        if let found = conversations.values.first(where: { !$0.isGroup && Set($0.memberIDs) == [me, other] }) { return found }
        return await insert(title: nil, members: [me, other])
    }

    func insert(title: String?, members: [UserID]) async -> Conversation {
        let conversation = Conversation(id: .random(), title: title, memberIDs: members, createdAt: clock.now())
        conversations[conversation.id] = conversation
        created.send(conversation)
        await journal?.record(.conversationAdded(conversation.id))
        return conversation
    }

    func createdConversations() -> AsyncStream<Conversation> { created.subscribe() }
}
