import Kernel

/// The account side of Auth, the part a server hosts: accounts, password checks, and session
/// tokens (issued, resolved, revoked). Implementations: `StoredAccountService` over memory's,
/// SQLite's or PostgreSQL's `AccountStore`, and `RemoteAccountService`; all behave the same (see
/// the contract suite).
public protocol AccountService: Sendable {
    /// Creates an account and its profile in one step, and issues a session for it; on a server
    /// that admits by invitation, one use of the code `invite` admits it (`Registration`).
    /// - Throws: `.invalidInput` for a bad email, name or password; `.conflict` if the email is
    ///   taken; `.forbidden` on a closed server, or an invite-only one without a valid code.
    func signUp(email: String, displayName: String, password: String, invite: String?) async throws -> IssuedSession

    /// Checks email and password and issues a new session.
    /// - Throws: `.invalidCredentials` when the email or the password is wrong.
    func signIn(email: String, password: String) async throws -> IssuedSession

    /// The account a session token belongs to; using it restarts the session's idle time.
    /// - Throws: `.notSignedIn` for an unknown, revoked or expired token.
    func account(for token: String) async throws -> Account

    /// Ends the session of `token`. An unknown token is already ended: nothing happens.
    func revoke(token: String) async throws

    /// Replaces the password of the token's account and ends every other session of it.
    /// - Throws: `.notSignedIn` for a bad token; `.invalidCredentials` if `current` is wrong;
    ///   `.invalidInput` if `new` breaks the password rule.
    func changePassword(token: String, current: String, new: String) async throws

    /// Redeems a password reset code an operator issued (`PasswordResets`): the password becomes
    /// `newPassword`, every session of the account ends, and a new one is issued.
    /// - Throws: `.invalidCredentials` for a code that is not valid (unknown, used, expired);
    ///   `.invalidInput` for a password that breaks the rule; `.forbidden` where resets are not kept.
    func resetPassword(code: String, newPassword: String) async throws -> IssuedSession

    /// Deletes the token's account after checking its password: its messages are deleted for
    /// everyone, its profile becomes "Deleted user", every session of it ends and its email is
    /// free (`AccountDeletion`).
    /// - Throws: `.notSignedIn` for a bad token; `.invalidCredentials` if `password` is wrong;
    ///   `.conflict` for the server's last admin.
    func deleteAccount(token: String, password: String) async throws
}

extension AccountService {
    /// A sign-up without an invitation code.
    public func signUp(email: String, displayName: String, password: String) async throws -> IssuedSession {
        try await signUp(email: email, displayName: displayName, password: password, invite: nil)
    }
}
