import Kernel

/// Finding messages. Implementations: `StoredSearchService` over a `SearchStore` (the memory
/// backend's scan, `InMemorySearchStore`; SQLite's and PostgreSQL's indexes elsewhere), and
/// `RemoteSearchService`. A person finds only messages of their own conversations, as they are now.
public protocol SearchService: Sendable {
    /// The messages of the caller's conversations (or of `conversationID` alone) that hold every
    /// term of `query`, newest first (in a conversation, recency is what ranks best), at most
    /// `limit`; with `before` (a hit's `cursor`), those below it in the store's order: the page
    /// after that hit. Any cursor will do: the page is the hits below it, whatever it was.
    /// - Throws: `.invalidInput` for a query `SearchQuery` refuses; `.forbidden` for a
    ///   conversation of which the caller is not a member.
    func search(_ query: String, in conversationID: ConversationID?, limit: Int, before: Int64?) async throws -> SearchPage

    /// The messages of the caller's conversations that mention them and are not deleted, newest
    /// last: with `since` (a mention's `cursor`), the first `limit` after it; without, the newest
    /// `limit`.
    func mentions(since: Int64?, limit: Int) async throws -> MentionPage
}

/// The rules every implementation keeps.
public enum SearchRules {
    /// Most hits, or mentions, on a page.
    public static let maxLimit = 100
    /// Hits, or mentions, on a page when none is asked for.
    public static let defaultLimit = 20

    /// What every search does first: reads `text` (`SearchQuery`), then starts as a list of
    /// mentions does (`start(limit:by:budget:)`).
    /// - Throws: what `SearchQuery` refuses; what `start(limit:by:budget:)` throws.
    public static func start(_ text: String, limit: Int, by caller: Caller, budget: UsageBudget) async throws
        -> (query: SearchQuery, me: UserID, limit: Int)
    {
        let query = try SearchQuery(text)
        let (me, limit) = try await start(limit: limit, by: caller, budget: budget)
        return (query, me, limit)
    }

    /// What every search and list of mentions does first: names the caller and spends a look-up
    /// of their budget; with the page's `limit` kept within 1…`maxLimit`.
    /// - Throws: `.notSignedIn`; `RetryLater` past the budget.
    public static func start(limit: Int, by caller: Caller, budget: UsageBudget) async throws -> (me: UserID, limit: Int) {
        let me = try await caller.id()
        try budget.spend(.lookup, by: me)
        return (me, min(max(limit, 1), maxLimit))
    }

    /// The refusal of a search of a conversation the caller is not a member of.
    static func notMember(_ conversationID: ConversationID) -> AppError {
        AppError(.forbidden, "you are not a member of conversation \(AppError.quoting(conversationID.rawValue))")
    }

    /// Conversations a search looks in, for each look-up of the budget it spends: the one `start`
    /// spends covers the first `conversationsPerLookup`, and each further `conversationsPerLookup`
    /// (or part) spends one more (SQLite's index looks each one up; PostgreSQL's search joins
    /// each membership).
    public static let conversationsPerLookup = 100

    /// The conversations a store's search looks in, of those the caller reads
    /// (`readable`, as the store read them): `conversationID` alone when asked, else all of them,
    /// past the first `conversationsPerLookup` each further `conversationsPerLookup` spending a
    /// look-up of `me`'s budget. Empty: nothing to search.
    /// - Throws: `.forbidden` when `conversationID` is not one the caller reads (`notMember`);
    ///   `RetryLater` past the budget.
    public static func scope(_ readable: [ConversationID], asked conversationID: ConversationID?, by me: UserID, budget: UsageBudget) throws
        -> [ConversationID]
    {
        if let conversationID {
            guard readable.contains(conversationID) else { throw notMember(conversationID) }
            return [conversationID]
        }
        for _ in stride(from: conversationsPerLookup, to: readable.count, by: conversationsPerLookup) { try budget.spend(.lookup, by: me) }
        return readable
    }

    /// Reads a cursor as typed (a search's `--before` and `?before=`, a list of mentions'
    /// `--since` and `?since=`): a whole number from 0, a position in the store's order.
    /// - Throws: `.invalidInput` for anything else.
    public static func cursor(_ text: String) throws -> Int64 {
        guard text.utf8.count <= 19, let cursor = Int64(text), cursor >= 0 else {
            throw AppError(.invalidInput, "a cursor is a whole number from 0, as a result or a list gives it")
        }
        return cursor
    }

    /// Candidates an index reads at most for one search: past them, older messages are not searched.
    public static let maxCandidates = 2_000
    /// Candidates checked for each look-up of the budget a search spends: the one `start` spends
    /// covers the first `candidatesPerLookup`, and each further `candidatesPerLookup` (or part)
    /// spends one more, so checking the most a search reads (`maxCandidates`) spends 20.
    public static let candidatesPerLookup = 100
    /// Most candidates read at once: a search reads `limit + 1`, then twice as many each time up
    /// to this, so reading its `maxCandidates` takes at most 11 statements, whatever the `limit`.
    public static let maxBatch = 500

    /// A message an index found, as it is now, with its place in the store's order.
    public struct Candidate: Sendable {
        public let key: Int64
        public let message: SearchCorpusMessage
        public let deleted: Bool

        public init(key: Int64, message: SearchCorpusMessage, deleted: Bool) {
            self.key = key
            self.message = message
            self.deleted = deleted
        }
    }

    /// The page of an index's search: candidates read newest first, `fetch(below, count)` at a
    /// time (`limit + 1`, then twice as many each time up to `maxBatch`), each checked against
    /// `query` as it is now (an index holds words, not their order, and may not have caught up
    /// with an edit or a deletion), until `limit` pass or `maxCandidates` were read. Past the
    /// first `candidatesPerLookup` checked, each further `candidatesPerLookup` spend a look-up of
    /// `me`'s budget. Each candidate is checked on `LowPriorityWork`'s threads, so that searches
    /// of long texts take a core only when sends and live delivery leave one.
    /// - Throws: what `fetch` throws; `RetryLater` past the budget.
    public static func verified(
        _ query: SearchQuery, limit: Int, below start: Int64, by me: UserID, budget: UsageBudget,
        fetch: (_ below: Int64, _ count: Int) async throws -> [Candidate]
    ) async throws -> SearchPage {
        var hits: [SearchHit] = []
        var (below, read, batch) = (start, 0, limit + 1)
        reading: while read < maxCandidates {
            let asked = min(batch, maxCandidates - read)
            let candidates = try await fetch(below, asked)
            for candidate in candidates {
                if read > 0, read % candidatesPerLookup == 0 { try budget.spend(.lookup, by: me) }
                (below, read) = (candidate.key, read + 1)
                if !candidate.deleted, let hit = try await LowPriorityWork.shared.run({ SearchHit(candidate.message, query: query) }) {
                    hits.append(hit)
                }
                if hits.count > limit { break reading }
            }
            if candidates.count < asked { break }
            batch = min(batch * 2, maxBatch)
        }
        return SearchPage(hits: Array(hits.prefix(limit)), hasMore: hits.count > limit)
    }
}
