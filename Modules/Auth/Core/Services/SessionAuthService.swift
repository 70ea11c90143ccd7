import Kernel

// arch-check: allow naming.service-impl: the client side of Auth is one implementation over every backend's AccountService, named for what it adds (the device's session), not for a backend.
/// The client side of Auth: signs in through an `AccountService` and keeps the issued session
/// in this device's `SessionStore`.
public struct SessionAuthService: AuthService {
    private let accounts: any AccountService
    private let store: any SessionStore

    /// Creates the client over the account side and the device's session store.
    public init(accounts: any AccountService, store: any SessionStore) {
        self.accounts = accounts
        self.store = store
    }

    public func signUp(email: String, displayName: String, password: String, invite: String?) async throws -> Account {
        try keep(try await accounts.signUp(email: email, displayName: displayName, password: password, invite: invite))
    }

    public func resetPassword(code: String, newPassword: String) async throws -> Account {
        try keep(try await accounts.resetPassword(code: code, newPassword: newPassword))
    }

    public func signIn(email: String, password: String) async throws -> Account {
        try keep(try await accounts.signIn(email: email, password: password))
    }

    public func signOut() async throws {
        if let session = try store.load() { try await accounts.revoke(token: session.token) }
        try store.save(nil)
    }

    public func currentAccount() async throws -> Account? {
        guard let session = try store.load() else { return nil }
        do {
            return try await accounts.account(for: session.token)
        } catch let error as AppError where error.kind == .notSignedIn {
            return nil
        }
    }

    public func changePassword(current: String, new: String) async throws {
        guard let session = try store.load() else { throw AppError.notSignedIn }
        try await accounts.changePassword(token: session.token, current: current, new: new)
    }

    public func deleteAccount(password: String) async throws {
        guard let session = try store.load() else { throw AppError.notSignedIn }
        try await accounts.deleteAccount(token: session.token, password: password)
        try store.save(nil)
    }

    private func keep(_ issued: IssuedSession) throws -> Account {
        try store.save(Session(issued))
        return issued.account
    }
}
