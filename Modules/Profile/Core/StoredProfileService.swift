import Kernel

/// One caller's view of the profiles of a store (`ProfileStore`: memory's, SQLite's or
/// PostgreSQL's), written once for all three: who the caller is, what is checked and spent from
/// their budget, what others see of a profile, and who hears of a new name.
public struct StoredProfileService: ProfileService {
    private let store: any ProfileStore
    private let caller: Caller
    private let budget: UsageBudget
    private let renameAudience: (any RenameAudience)?

    /// Creates the service for `caller` over `store`; a new name is an event for whom
    /// `renameAudience` says (without one, the caller alone); renames and look-ups of people
    /// spend from `budget`.
    public init(store: any ProfileStore, caller: Caller, renameAudience: (any RenameAudience)? = nil, budget: UsageBudget = .unlimited) {
        self.store = store
        self.caller = caller
        self.renameAudience = renameAudience
        self.budget = budget
    }

    public func myProfile() async throws -> Profile {
        guard let profile = try await store.profile(try await caller.principal().id) else { throw ProfileRules.noOwnProfile }
        return profile
    }

    public func profile(matching idOrEmail: String) async throws -> Profile {
        let me = try await caller.id()
        try budget.spend(.lookup, by: me)
        guard let found = try await store.profile(matching: ProfileRules.lookupKeys(idOrEmail)) else { throw ProfileRules.noUser(idOrEmail) }
        return ProfileRules.seen(found, by: me, asking: idOrEmail)
    }

    public func updateMyProfile(displayName: String?, status: String?) async throws -> Profile {
        let me = try await caller.id()
        // Asked before the write: a name that does not change costs the question, not the event.
        let audience = displayName == nil ? [me] : try await renameAudience?.audience(ofRenamed: me) ?? [me]
        let budget = budget
        let updated = try await store.update(me) { old in
            let profile = try ProfileRules.edited(old, displayName: displayName, status: status)
            guard profile.displayName != old.displayName else { return ProfileEdit(profile) }
            try budget.spend(.rename, by: me)
            return ProfileEdit(profile, event: (.profileRenamed(me, to: profile.displayName), audience))
        }
        guard let updated else { throw ProfileRules.noOwnProfile }
        return updated
    }

    public func search(_ query: String, limit: Int) async throws -> [Profile] {
        let me = try await caller.id()
        let prefix = try Validation.searchPrefix(query)
        try ProfileRules.checkSearchLimit(limit)
        try budget.spend(.lookup, by: me)
        return try await store.profiles(startingWith: prefix, limit: limit).map { ProfileRules.seen($0, by: me, asking: prefix) }
    }

    public func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
        // Anyone signed in, a bot's token too, reads the names of what it may read.
        _ = try await caller.principal()
        return try await store.displayNames(of: ids)
    }
}
