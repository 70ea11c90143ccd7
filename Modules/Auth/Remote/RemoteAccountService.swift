import Auth
import AuthAPI
import Kernel
import RemoteClient

/// The account side of Auth on the MessageAI server.
public struct RemoteAccountService: AccountService {
    private let connection: RemoteConnection

    /// Creates the service over the process's connection to the server.
    public init(connection: RemoteConnection) { self.connection = connection }

    public func signUp(email: String, displayName: String, password: String, invite: String?) async throws -> IssuedSession {
        let request = SignUpRequest(email: email, displayName: displayName, password: password, invite: invite)
        return try await connection.call(AuthAPI.signUp, body: request, token: nil).issued
    }

    public func signIn(email: String, password: String) async throws -> IssuedSession {
        try await connection.call(AuthAPI.signIn, body: SignInRequest(email: email, password: password), token: nil).issued
    }

    public func account(for token: String) async throws -> Account {
        try await connection.call(AuthAPI.session, body: NoContent(), token: token)
    }

    public func revoke(token: String) async throws {
        do {
            _ = try await connection.call(AuthAPI.signOut, body: NoContent(), token: token)
        } catch let error as AppError where error.kind == .notSignedIn {
            // Already ended.
        }
    }

    public func changePassword(token: String, current: String, new: String) async throws {
        _ = try await connection.call(AuthAPI.changePassword, body: PasswordChange(current: current, new: new), token: token)
    }

    public func deleteAccount(token: String, password: String) async throws {
        _ = try await connection.call(AuthAPI.deleteAccount, body: AccountDeletionRequest(password: password), token: token)
    }

    public func resetPassword(code: String, newPassword: String) async throws -> IssuedSession {
        try await connection.call(AuthAPI.resetPassword, body: PasswordReset(code: code, new: newPassword), token: nil).issued
    }
}
