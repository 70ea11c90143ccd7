import Auth
import Kernel

// arch-check: allow naming.service-impl: a decorator over whichever backend's AccountService that keeps the graph's verification cache in step; not a backend of its own.
/// The backend's account service, with the graph's verification cache kept in step: a session
/// revoked or ended through this graph is refused here at once, not after the cache time (which
/// still bounds revocations made by other processes).
struct VerifiedAccounts: AccountService {
    let accounts: any AccountService
    let verifier: SessionVerifier

    func signUp(email: String, displayName: String, password: String, invite: String?) async throws -> IssuedSession {
        try await accounts.signUp(email: email, displayName: displayName, password: password, invite: invite)
    }

    func signIn(email: String, password: String) async throws -> IssuedSession {
        try await accounts.signIn(email: email, password: password)
    }

    /// A bot's API token answers its bot, with no email: what `whoami` shows of it.
    func account(for token: String) async throws -> Account {
        guard BotRules.isAPIToken(token), verifier.resolvesBotTokens else { return try await accounts.account(for: token) }
        return Account(id: try await verifier.userID(for: token), email: "")
    }

    func revoke(token: String) async throws {
        try await accounts.revoke(token: token)
        verifier.forget(token: token)
    }

    func resetPassword(code: String, newPassword: String) async throws -> IssuedSession {
        let issued = try await accounts.resetPassword(code: code, newPassword: newPassword)
        verifier.forget(user: issued.account.id, except: issued.token)
        return issued
    }

    func deleteAccount(token: String, password: String) async throws {
        let user = try await verifier.userID(for: token)
        try await accounts.deleteAccount(token: token, password: password)
        // No token is empty: every session of the account ends.
        verifier.forget(user: user, except: "")
    }

    func changePassword(token: String, current: String, new: String) async throws {
        let user = try await verifier.userID(for: token)
        try await accounts.changePassword(token: token, current: current, new: new)
        verifier.forget(user: user, except: token)
    }
}
