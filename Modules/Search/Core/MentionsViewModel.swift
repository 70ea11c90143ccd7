import Kernel
import Observation

/// The messages that mention the user: the newest, or those after a cursor.
@MainActor
@Observable
public final class MentionsViewModel {
    /// The last page asked for.
    public private(set) var page: Loadable<MentionPage> = .idle

    private let service: any SearchService

    /// Creates the view model over `service`; nothing is read until `load(since:limit:)`.
    public init(service: any SearchService) { self.service = service }

    /// Reads the newest mentions, or with `since` the ones after it.
    public func load(since: Int64? = nil, limit: Int = SearchRules.defaultLimit) async {
        page = .loading
        page = await .from { [service] in try await service.mentions(since: since, limit: limit) }
    }
}
