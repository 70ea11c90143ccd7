import Kernel

/// One caller's view of the memory backend's profiles.
public struct InMemoryProfileService: ProfileService {
    private let store: InMemoryProfileStore
    private let caller: Caller

    /// Creates the service for `caller` over the shared store.
    public init(store: InMemoryProfileStore, caller: Caller) {
        self.store = store
        self.caller = caller
    }

    public func myProfile() async throws -> Profile {
        try await store.conditions.apply()
        return try await store.profile(try await caller.id())
    }

    public func profile(matching idOrEmail: String) async throws -> Profile {
        try await store.conditions.apply()
        let me = try await caller.id()
        return ProfileRules.seen(try await store.profile(matching: idOrEmail), by: me, asking: idOrEmail)
    }

    public func updateMyProfile(displayName: String?, status: String?) async throws -> Profile {
        try await store.conditions.apply()
        return try await store.edit(try await caller.id(), displayName: displayName, status: status)
    }

    public func search(_ query: String, limit: Int) async throws -> [Profile] {
        try await store.conditions.apply()
        let me = try await caller.id()
        let prefix = try Validation.searchPrefix(query)
        try ProfileRules.checkSearchLimit(limit)
        return await store.search(prefix, limit: limit).map { ProfileRules.seen($0, by: me, asking: prefix) }
    }

    public func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
        _ = try await caller.id()
        return await store.displayNames(of: ids)
    }
}
