import Kernel

/// The profiles of the memory backend: the `ProfileStore` of every caller's
/// `StoredProfileService`, as SQLite's and PostgreSQL's are, each operation after its
/// `SimulatedConditions`; and the registry other features create profiles through.
public actor InMemoryProfileStore: ProfileStore, ProfileRegistry {
    private var profiles: [UserID: Profile]
    private var suspended: Set<UserID> = []
    private let conditions: SimulatedConditions
    private let journal: (any ChangeJournal)?

    /// Creates the store with seeded profiles; events of edits are recorded in `journal`, when given.
    public init(profiles: [Profile] = [], journal: (any ChangeJournal)? = nil, conditions: SimulatedConditions = .none) {
        self.journal = journal
        self.profiles = Dictionary(uniqueKeysWithValues: profiles.map { ($0.id, $0) })
        self.conditions = conditions
    }

    public func createProfile(_ profile: Profile) async throws {
        guard profiles[profile.id] == nil, !profiles.values.contains(where: { $0.email == profile.email }) else {
            throw ProfileRules.profileExists(profile)
        }
        profiles[profile.id] = profile
    }

    /// Display names of the given users; unknown ids are left out.
    public func displayNames(of ids: [UserID]) -> [UserID: String] {
        Dictionary(ids.compactMap { id in shown(id).map { (id, $0.displayName) } }) { first, _ in first }
    }

    public func setSuspended(_ id: UserID, _ suspended: Bool) {
        if suspended { self.suspended.insert(id) } else { self.suspended.remove(id) }
    }

    /// `id`'s profile as others see it.
    private func shown(_ id: UserID) -> Profile? {
        profiles[id].map { ProfileRules.shown($0, suspended: suspended.contains(id)) }
    }

    public func eraseProfile(of id: UserID) {
        if profiles[id] != nil { profiles[id] = ProfileRules.erased(id) }
    }

    public func profile(_ id: UserID) async throws -> Profile? {
        try await conditions.apply()
        return shown(id)
    }

    public func profile(matching keys: (id: UserID, email: String)) async throws -> Profile? {
        try await conditions.apply()
        return shown(keys.id) ?? profiles.values.first { $0.email == keys.email }.flatMap { shown($0.id) }
    }

    public func profiles(startingWith prefix: String, limit: Int) async throws -> [Profile] {
        try await conditions.apply()
        return profiles.values
            .filter { ProfileRules.matches($0, search: prefix) }
            .compactMap { shown($0.id) }
            .sorted { ($0.displayName.lowercased(), $0.id) < ($1.displayName.lowercased(), $1.id) }
            .prefix(max(limit, 0))
            .map { $0 }
    }

    public func update(_ id: UserID, _ edit: @escaping @Sendable (Profile) throws -> ProfileEdit) async throws -> Profile? {
        try await conditions.apply()
        guard let old = profiles[id] else { return nil }
        let edited = try edit(old)
        profiles[id] = edited.profile
        if let event = edited.event { await journal?.record(event.change, audience: event.audience) }
        return edited.profile
    }
}
