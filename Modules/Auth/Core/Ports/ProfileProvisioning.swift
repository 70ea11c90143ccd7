import Kernel

/// What Auth needs from outside at sign-up: somewhere to create the new user's profile.
///
/// Auth does not import Profile; the composition root connects this port to Profile's service.
public protocol ProfileProvisioning: Sendable {
    /// Creates the profile of a new account.
    func createProfile(for account: Account, displayName: String) async throws

    /// Creates the profile of a new bot: named as it is, shown as a bot.
    func createProfile(of bot: Bot) async throws
}
