import Kernel
import Observation

/// The signed-in session: who am I, sign out, change password.
@MainActor
@Observable
public final class SessionViewModel {
    /// The current account (`nil` inside `.loaded` when nobody is signed in).
    public private(set) var account: Loadable<Account?> = .idle
    /// The outcome of the last sign-out or password change.
    public private(set) var lastAction: Loadable<Action> = .idle

    /// Actions this screen performs.
    public enum Action: Sendable, Equatable {
        /// The session ended.
        case signedOut
        /// The password was replaced.
        case passwordChanged
        /// The account was deleted.
        case accountDeleted
    }

    private let auth: any AuthService

    /// Creates the view model over an auth service.
    public init(auth: any AuthService) { self.auth = auth }

    /// Loads the signed-in account.
    public func load() async {
        account = .loading
        account = await .from { try await auth.currentAccount() }
    }

    /// Ends the session.
    public func signOut() async {
        lastAction = .loading
        lastAction = await .from {
            try await auth.signOut()
            return .signedOut
        }
        if lastAction == .loaded(.signedOut) { account = .loaded(nil) }
    }

    /// Deletes the account after checking its password; nobody is signed in after it.
    public func deleteAccount(password: String) async {
        lastAction = .loading
        lastAction = await .from {
            try await auth.deleteAccount(password: password)
            return .accountDeleted
        }
        if lastAction == .loaded(.accountDeleted) { account = .loaded(nil) }
    }

    /// Replaces the password after checking the current one.
    public func changePassword(current: String, new: String) async {
        lastAction = .loading
        lastAction = await .from {
            try await auth.changePassword(current: current, new: new)
            return .passwordChanged
        }
    }
}
