import Auth
import Profile

/// Auth's sign-up creates the profile through Profile's registry.
struct ProfileProvisioningAdapter: ProfileProvisioning {
    let registry: any ProfileRegistry

    func createProfile(for account: Account, displayName: String) async throws {
        try await registry.createProfile(Profile(id: account.id, email: account.email, displayName: displayName))
    }
}
