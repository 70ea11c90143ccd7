import Foundation
import Kernel

/// Search, and the caller's mentions, by a scan of every message the caller may read: the
/// memory backend's, where the messages are few.
public struct InMemorySearchService: SearchService {
    private let corpus: any SearchCorpus
    private let caller: Caller
    private let budget: UsageBudget

    /// Creates the service for `caller` over `corpus`; each search spends a look-up from `budget`.
    public init(corpus: any SearchCorpus, caller: Caller, budget: UsageBudget = .unlimited) {
        self.corpus = corpus
        self.caller = caller
        self.budget = budget
    }

    public func search(_ query: String, in conversationID: ConversationID?, limit: Int, before: Int64?) async throws -> SearchPage {
        let (query, me, limit) = try await SearchRules.start(query, limit: limit, by: caller, budget: budget)
        let hits = try await corpus.messages(readableBy: me, in: conversationID).compactMap { SearchHit($0, query: query) }
        return SearchRules.page(hits, limit: limit, before: before)
    }

    public func mentions(since: Int64?, limit: Int) async throws -> MentionPage {
        let (me, limit) = try await SearchRules.start(limit: limit, by: caller, budget: budget)
        let found = try await corpus.messages(readableBy: me, in: nil)
            .filter { $0.mentions.contains(me) && $0.key > since ?? .min }.map(Mention.init)
        return MentionPage(found, since: since, limit: limit)
    }
}
