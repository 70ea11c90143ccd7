import Kernel

/// What other features need of Profile, through the composition root and for no caller in
/// particular: creating a new account's profile, and display names. Kept apart from
/// `ProfileService` because no screen may call it.
public protocol ProfileRegistry: Sendable {
    /// Creates the profile of a new user.
    /// - Throws: `.conflict` if the user or the email already has one.
    func createProfile(_ profile: Profile) async throws

    /// Display names of the given users; unknown ids are left out.
    func displayNames(of ids: [UserID]) async throws -> [UserID: String]

    /// Marks `id`'s name suspended where others see it (`ProfileRules.shownName`), or no longer.
    func setSuspended(_ id: UserID, _ suspended: Bool) async throws

    /// Makes the profile of a deleted account what `ProfileRules.erased` says: named "Deleted
    /// user", no status, its email free for a new account. Nothing when there is none.
    func eraseProfile(of id: UserID) async throws
}
