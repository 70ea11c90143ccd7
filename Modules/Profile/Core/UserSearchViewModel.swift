import Kernel
import Observation

/// Finding people by name or email prefix.
@MainActor
@Observable
public final class UserSearchViewModel {
    /// The matches of the last search.
    public private(set) var results: Loadable<[Profile]> = .idle

    private let service: any ProfileService

    /// Creates the view model over a profile service.
    public init(service: any ProfileService) { self.service = service }

    /// Searches for users whose name or email starts with `query`.
    public func search(_ query: String, limit: Int = 20) async {
        results = .loading
        results = await .from { try await service.search(query, limit: limit) }
    }
}
