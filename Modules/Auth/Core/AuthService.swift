import Kernel

/// Sign-up, sign-in and the current session. Implementations: `InMemoryAuthService`,
/// `SQLAuthService`, `RemoteAuthService`; all behave the same (see the contract suite).
public protocol AuthService: Sendable {
    /// Creates an account and its profile, then signs it in.
    /// - Throws: `.invalidInput` for a bad email, name or password; `.conflict` if the email is taken.
    func signUp(email: String, displayName: String, password: String) async throws -> Account

    /// Signs in with email and password and keeps the session.
    /// - Throws: `.invalidCredentials` when the email or the password is wrong.
    func signIn(email: String, password: String) async throws -> Account

    /// Ends the current session. Signing out when nobody is signed in does nothing.
    func signOut() async throws

    /// The signed-in account, or `nil` when there is no valid session.
    func currentAccount() async throws -> Account?

    /// Replaces the signed-in user's password.
    /// - Throws: `.invalidCredentials` if `current` is wrong; `.invalidInput` if `new` is too short.
    func changePassword(current: String, new: String) async throws
}
