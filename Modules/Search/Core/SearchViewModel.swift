import Kernel
import Observation

/// A search of the user's messages: its results, a page at a time.
@MainActor
@Observable
public final class SearchViewModel {
    /// The last search's results, best first (more pages appended).
    public private(set) var results: Loadable<SearchPage> = .idle
    /// What was searched for last.
    public private(set) var query = ""

    private let service: any SearchService
    private var conversationID: ConversationID?

    /// Creates the view model over `service`; nothing is searched until `search(_:in:limit:before:)`.
    public init(service: any SearchService) {
        self.service = service
    }

    /// Searches for `query` (in `conversationID` alone, if given): the first page, or the one after the hit whose cursor is `before`.
    public func search(_ query: String, in conversationID: ConversationID? = nil, limit: Int = SearchRules.defaultLimit, before: Int64? = nil) async {
        self.query = query
        self.conversationID = conversationID
        results = .loading
        results = await .from { [service] in try await service.search(query, in: conversationID, limit: limit, before: before) }
    }

    /// The next page of the last search, added after what is shown.
    public func more(limit: Int = SearchRules.defaultLimit) async {
        guard let shown = results.value, shown.hasMore, let last = shown.hits.last else { return }
        let next: Loadable<SearchPage> = await .from { [service, query, conversationID] in
            try await service.search(query, in: conversationID, limit: limit, before: last.cursor)
        }
        switch next {
        case .loaded(let page): results = .loaded(SearchPage(hits: shown.hits + page.hits, hasMore: page.hasMore))
        default: results = next
        }
    }
}
