import Kernel

/// Finding messages. Implementations: `InMemorySearchService` (a scan); each store's own index
/// behind it elsewhere. A person finds only messages of their own conversations, as they are now.
public protocol SearchService: Sendable {
    /// The messages of the caller's conversations (or of `conversationID` alone) that hold every
    /// term of `query`, newest first (in a conversation, recency is what ranks best), at most
    /// `limit`; with `before`, those after that hit.
    /// - Throws: `.invalidInput` for a query `SearchQuery` refuses; `.forbidden` for a
    ///   conversation of which the caller is not a member; `.notFound` for a `before` that is
    ///   not a hit of this search.
    func search(_ query: String, in conversationID: ConversationID?, limit: Int, before: MessageID?) async throws -> SearchPage
}

/// The rules every implementation keeps.
public enum SearchRules {
    /// Most hits on a page.
    public static let maxLimit = 100
    /// Hits on a page when none is asked for.
    public static let defaultLimit = 20

    /// Ranks `hits` (given oldest first) newest first and cuts the page `limit` long after `before`.
    /// - Throws: `.notFound` for a `before` not among them.
    public static func page(_ hits: [SearchHit], limit: Int, before: MessageID?) throws -> SearchPage {
        let ranked = Array(hits.reversed())
        var start = 0
        if let before {
            guard let index = ranked.firstIndex(where: { $0.id == before }) else {
                throw AppError(.notFound, "\(AppError.quoting(before.rawValue)) is not a result of this search")
            }
            start = index + 1
        }
        let limit = min(max(limit, 1), maxLimit)
        return SearchPage(hits: Array(ranked.dropFirst(start).prefix(limit)), hasMore: ranked.count > start + limit)
    }
}
