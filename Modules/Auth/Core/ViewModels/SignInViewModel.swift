import Kernel
import Observation

/// The sign-in screen: sign in to an existing account or sign up for a new one.
@MainActor
@Observable
public final class SignInViewModel {
    /// `idle` until a submit, then `loading`, then the signed-in account or the error.
    public private(set) var state: Loadable<Account> = .idle

    private let auth: any AuthService

    /// Creates the view model over an auth service.
    public init(auth: any AuthService) { self.auth = auth }

    /// Signs in with email and password.
    public func signIn(email: String, password: String) async {
        state = .loading
        state = await .from { try await auth.signIn(email: email, password: password) }
    }

    /// Creates an account and signs it in.
    /// Sets a new password with an operator's reset code and signs in with it (`AuthService.resetPassword`).
    public func resetPassword(code: String, newPassword: String) async {
        state = .loading
        state = await .from { try await auth.resetPassword(code: code, newPassword: newPassword) }
    }

    public func signUp(email: String, displayName: String, password: String, invite: String? = nil) async {
        state = .loading
        state = await .from { try await auth.signUp(email: email, displayName: displayName, password: password, invite: invite) }
    }
}
