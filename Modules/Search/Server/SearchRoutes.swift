import Kernel
import Search
import SearchAPI
import ServerSupport

/// Search's routes, answered by the caller's `SearchService`.
public struct SearchRoutes: Sendable {
    private let service: @Sendable (Caller) -> any SearchService

    /// Creates the route; `service` builds the search service of a caller.
    public init(service: @escaping @Sendable (Caller) -> any SearchService) { self.service = service }

    /// Registers every Search endpoint.
    public func add(to routes: APIRoutes) {
        let service = service
        routes.add(SearchAPI.search) { call in
            let conversation: ConversationID? = try call.query(SearchAPI.Query.conversation).map {
                try Validation.identifier($0, field: "conversation")
            }
            let before = try call.query(SearchAPI.Query.before).map(SearchRules.cursor)
            let limit = try call.query(SearchAPI.Query.limit, default: SearchRules.defaultLimit)
            return try await service(call.caller).search(try call.required(SearchAPI.Query.text), in: conversation, limit: limit, before: before)
        }
        routes.add(SearchAPI.mentions) { call in
            let since = try call.query(SearchAPI.MentionsQuery.since).map(SearchRules.cursor)
            return try await service(call.caller).mentions(
                since: since, limit: try call.query(SearchAPI.MentionsQuery.limit, default: SearchRules.defaultLimit))
        }
    }
}
