/// Creating a profile at sign-up. Kept apart from `ProfileService` because no screen may call it.
public protocol ProfileRegistry: Sendable {
    /// Creates the profile of a new user.
    func createProfile(_ profile: Profile) async throws
}
