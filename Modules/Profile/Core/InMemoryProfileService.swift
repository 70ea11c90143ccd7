import Kernel

/// Profiles kept in process memory: the memory backend and unit tests.
public actor InMemoryProfileService: ProfileService, ProfileRegistry {
    private var profiles: [UserID: Profile]
    private let sessions: any SessionStore
    private let conditions: SimulatedConditions

    /// Creates the service with seeded profiles.
    public init(profiles: [Profile] = [], sessions: any SessionStore, conditions: SimulatedConditions = .none) {
        self.profiles = Dictionary(uniqueKeysWithValues: profiles.map { ($0.id, $0) })
        self.sessions = sessions
        self.conditions = conditions
    }

    public func createProfile(_ profile: Profile) async throws {
        guard profiles[profile.id] == nil else { throw AppError(.conflict, "user \(profile.id) already has a profile") }
        profiles[profile.id] = profile
    }

    public func myProfile() async throws -> Profile {
        try await conditions.apply()
        return try current()
    }

    public func profile(matching idOrEmail: String) async throws -> Profile {
        try await conditions.apply()
        _ = try sessions.requireSession()
        let key = idOrEmail.trimmingCharacters(in: .whitespaces)
        if let profile = profiles[UserID(key)] { return profile }
        let email = key.lowercased()
        guard let profile = profiles.values.first(where: { $0.email == email }) else {
            throw AppError(.notFound, "no user '\(idOrEmail)'")
        }
        return profile
    }

    public func updateMyProfile(displayName: String?, status: String?) async throws -> Profile {
        try await conditions.apply()
        var profile = try current()
        if let displayName { profile.displayName = try Validation.displayName(displayName) }
        if let status { profile.status = try Validation.status(status) }
        profiles[profile.id] = profile
        return profile
    }

    public func search(_ query: String, limit: Int) async throws -> [Profile] {
        try await conditions.apply()
        _ = try sessions.requireSession()
        let prefix = try Validation.searchPrefix(query)
        return profiles.values
            .filter { $0.displayName.lowercased().hasPrefix(prefix) || $0.email.hasPrefix(prefix) }
            .sorted { ($0.displayName.lowercased(), $0.id) < ($1.displayName.lowercased(), $1.id) }
            .prefix(max(limit, 0))
            .map { $0 }
    }

    public func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
        Dictionary(uniqueKeysWithValues: ids.compactMap { id in profiles[id].map { (id, $0.displayName) } })
    }

    private func current() throws -> Profile {
        let session = try sessions.requireSession()
        guard let profile = profiles[session.userID] else { throw AppError.notSignedIn }
        return profile
    }
}
