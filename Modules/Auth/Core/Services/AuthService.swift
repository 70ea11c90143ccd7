import Kernel

// arch-check: allow naming.in-memory-impl: SessionAuthService is the one implementation; over StoredAccountService on InMemoryAccountStore and InMemorySessionStore it is the in-memory one.
/// Sign-up, sign-in and the session on this device: what Auth's screens call. Implemented once,
/// by `SessionAuthService`, over whichever backend's `AccountService`.
public protocol AuthService: Sendable {
    /// Creates an account and its profile, then signs it in on this device; `invite` is the
    /// invitation code a server that admits by invitation asks for.
    /// - Throws: `.invalidInput` for a bad email, name or password; `.conflict` if the email is
    ///   taken; `.forbidden` when the server admits nobody, or nobody without a valid code.
    func signUp(email: String, displayName: String, password: String, invite: String?) async throws -> Account

    /// Signs in with email and password and keeps the session on this device.
    /// - Throws: `.invalidCredentials` when the email or the password is wrong.
    func signIn(email: String, password: String) async throws -> Account

    /// Ends the current session (the backend revokes its token). Signing out when nobody is signed in does nothing.
    func signOut() async throws

    /// The signed-in account, or `nil` when there is no session or its token was revoked or expired.
    func currentAccount() async throws -> Account?

    /// Replaces the signed-in user's password; every other session of the user ends.
    /// - Throws: `.invalidCredentials` if `current` is wrong; `.invalidInput` if `new` is too short.
    func changePassword(current: String, new: String) async throws

    /// Sets a new password with a reset code an operator gave, ending every session of the
    /// account, and signs it in on this device.
    /// - Throws: `.invalidCredentials` for a code that is not valid; `.invalidInput` for a bad password.
    func resetPassword(code: String, newPassword: String) async throws -> Account

    /// Deletes the signed-in account after checking `password` (`AccountService.deleteAccount`)
    /// and forgets its session on this device.
    /// - Throws: `.invalidCredentials` if `password` is wrong; `.conflict` for a server's last admin.
    func deleteAccount(password: String) async throws
}

extension AuthService {
    /// A sign-up without an invitation code.
    public func signUp(email: String, displayName: String, password: String) async throws -> Account {
        try await signUp(email: email, displayName: displayName, password: password, invite: nil)
    }
}
