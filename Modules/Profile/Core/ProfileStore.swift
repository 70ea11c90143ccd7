import Kernel

/// A store of profiles as `StoredProfileService` uses it: it reads profiles and writes what
/// the service's rules give, deciding nothing `ProfileRules` decides. Memory, SQLite and
/// PostgreSQL implement it.
public protocol ProfileStore: Sendable {
    /// The profile of `id`, or `nil`.
    func profile(_ id: UserID) async throws -> Profile?

    /// The profile whose id is `keys.id`, else whose email is `keys.email` (`ProfileRules.lookupKeys`), or `nil`.
    func profile(matching keys: (id: UserID, email: String)) async throws -> Profile?

    /// At most `limit` profiles whose display name starts with `prefix` (folded, as
    /// `ProfileRules.matches` says) or whose email is `prefix`, by name then id.
    func profiles(startingWith prefix: String, limit: Int) async throws -> [Profile]

    /// Applies `edit` to `id`'s profile and stores what it gives, and the event it gives if any,
    /// in one transaction that holds the profile, so that two edits of different fields both
    /// survive; `nil` when `id` has no profile.
    /// - Throws: what `edit` throws (nothing is stored).
    func update(_ id: UserID, _ edit: @escaping @Sendable (Profile) throws -> ProfileEdit) async throws -> Profile?

    /// Display names of the given users; unknown ids are left out.
    func displayNames(of ids: [UserID]) async throws -> [UserID: String]
}

/// What an edit of a profile stores: the profile, and the event that tells others, if any.
public struct ProfileEdit: Sendable {
    public let profile: Profile
    public let event: (change: StoreChange, audience: [UserID])?

    public init(_ profile: Profile, event: (change: StoreChange, audience: [UserID])? = nil) {
        self.profile = profile
        self.event = event
    }
}
