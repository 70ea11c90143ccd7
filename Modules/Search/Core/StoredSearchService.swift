import Kernel

/// One caller's search of a store's index (`SearchStore`: SQLite's or PostgreSQL's), written
/// once for both: who the caller is, what is spent from their budget, which conversations are
/// searched (`SearchRules.scope`), and which candidates are hits (`SearchRules.verified`).
public struct StoredSearchService: SearchService {
    private let store: any SearchStore
    private let caller: Caller
    private let budget: UsageBudget

    /// Creates the service for `caller` over `store`; each search spends look-ups from `budget`.
    public init(store: any SearchStore, caller: Caller, budget: UsageBudget = .unlimited) {
        self.store = store
        self.caller = caller
        self.budget = budget
    }

    public func search(_ query: String, in conversationID: ConversationID?, limit: Int, before: Int64?) async throws -> SearchPage {
        let (query, me, limit) = try await SearchRules.start(query, limit: limit, by: caller, budget: budget)
        let readable = try await store.conversations(readBy: me, among: conversationID)
        let conversations = try SearchRules.scope(readable, asked: conversationID, by: me, budget: budget)
        guard !conversations.isEmpty else { return SearchPage(hits: [], hasMore: false) }
        try await store.bringUpToDate()
        return try await SearchRules.verified(query, limit: limit, below: before ?? .max, by: me, budget: budget) { below, count in
            try await store.candidates(query, in: conversations, below: below, count: count)
        }
    }

    public func mentions(since: Int64?, limit: Int) async throws -> MentionPage {
        let (me, limit) = try await SearchRules.start(limit: limit, by: caller, budget: budget)
        let reading = MentionPage.reading(since: since, limit: limit)
        let found = try await store.mentions(of: me, after: since ?? -1, count: reading.count, newestFirst: reading.newestFirst)
        return MentionPage(found, since: since, limit: limit)
    }
}
