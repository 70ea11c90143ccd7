import Kernel

/// Reading and editing profiles. Implementations: `StoredProfileService` (over the memory
/// backend's, SQLite's or PostgreSQL's `ProfileStore`), `RemoteProfileService`.
public protocol ProfileService: Sendable {
    /// The signed-in user's profile.
    func myProfile() async throws -> Profile

    /// Looks a user up by user id or by email.
    /// - Throws: `.notFound` if no user matches.
    func profile(matching idOrEmail: String) async throws -> Profile

    /// Changes the signed-in user's display name and/or status; `nil` leaves a field as it is.
    func updateMyProfile(displayName: String?, status: String?) async throws -> Profile

    /// Users whose display name or email starts with `query` (case-insensitive), by name.
    func search(_ query: String, limit: Int) async throws -> [Profile]

    /// Display names of the given users; unknown ids are left out.
    func displayNames(of ids: [UserID]) async throws -> [UserID: String]
}
