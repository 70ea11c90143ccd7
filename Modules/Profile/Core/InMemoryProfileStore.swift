import Kernel

/// The profiles of the memory backend, shared by every caller's `InMemoryProfileService`.
public actor InMemoryProfileStore: ProfileRegistry {
    private var profiles: [UserID: Profile]
    let conditions: SimulatedConditions
    private let journal: (any ChangeJournal)?
    private let renameAudience: (any RenameAudience)?

    /// Creates the store with seeded profiles; new names are recorded in `journal`, when given,
    /// for whom `renameAudience` says (without one, the renamed user alone).
    public init(
        profiles: [Profile] = [], journal: (any ChangeJournal)? = nil, renameAudience: (any RenameAudience)? = nil,
        conditions: SimulatedConditions = .none
    ) {
        self.journal = journal
        self.renameAudience = renameAudience
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
        Dictionary(ids.compactMap { id in profiles[id].map { (id, $0.displayName) } }) { first, _ in first }
    }

    func profile(_ id: UserID) throws -> Profile {
        guard let profile = profiles[id] else { throw ProfileRules.noOwnProfile }
        return profile
    }

    func profile(matching idOrEmail: String) throws -> Profile {
        let keys = ProfileRules.lookupKeys(idOrEmail)
        guard let profile = profiles[keys.id] ?? profiles.values.first(where: { $0.email == keys.email }) else {
            throw ProfileRules.noUser(idOrEmail)
        }
        return profile
    }

    func edit(_ id: UserID, displayName: String?, status: String?) async throws -> Profile {
        let old = try profile(id)
        let profile = try ProfileRules.edited(old, displayName: displayName, status: status)
        profiles[id] = profile
        if profile.displayName != old.displayName, let journal {
            await journal.record(.profileRenamed(id, to: profile.displayName), audience: try await renameAudience?.audience(ofRenamed: id) ?? [id])
        }
        return profile
    }

    func search(_ prefix: String, limit: Int) -> [Profile] {
        profiles.values
            .filter { ProfileRules.matches($0, search: prefix) }
            .sorted { ($0.displayName.lowercased(), $0.id) < ($1.displayName.lowercased(), $1.id) }
            .prefix(max(limit, 0))
            .map { $0 }
    }
}
