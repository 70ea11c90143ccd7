import Kernel
import RemoteClient
import Search
import SearchAPI

/// One caller's search and mentions on the MessageAI server, which reads its own store.
public struct RemoteSearchService: SearchService {
    private let connection: RemoteConnection
    private let caller: Caller

    /// Creates the service for `caller` over the process's connection.
    public init(connection: RemoteConnection, caller: Caller) {
        self.connection = connection
        self.caller = caller
    }

    public func search(_ query: String, in conversationID: ConversationID?, limit: Int, before: Int64?) async throws -> SearchPage {
        _ = try SearchQuery(query)
        var parameters = [SearchAPI.Query.text: query, SearchAPI.Query.limit: String(min(max(limit, 1), SearchRules.maxLimit))]
        parameters[SearchAPI.Query.conversation] = conversationID?.rawValue
        parameters[SearchAPI.Query.before] = before.map(String.init)
        return try await connection.call(SearchAPI.search, query: parameters, body: NoContent(), as: caller)
    }

    public func mentions(since: Int64?, limit: Int) async throws -> MentionPage {
        var parameters = [SearchAPI.MentionsQuery.limit: String(min(max(limit, 1), SearchRules.maxLimit))]
        parameters[SearchAPI.MentionsQuery.since] = since.map(String.init)
        return try await connection.call(SearchAPI.mentions, query: parameters, body: NoContent(), as: caller)
    }
}
