import Foundation
import Kernel

/// Accounts kept in process memory: the memory backend and unit tests.
public actor InMemoryAuthService: AuthService {
    private var accounts: [String: StoredAccount]
    private let hasher: any PasswordHasher
    private let sessions: any SessionStore
    private let profiles: any ProfileProvisioning
    private let conditions: SimulatedConditions

    /// Creates the service with seeded accounts. A session is valid while its account exists, so
    /// a session of a seeded account stays valid across runs of the memory backend.
    public init(
        accounts: [StoredAccount] = [],
        hasher: any PasswordHasher,
        sessions: any SessionStore,
        profiles: any ProfileProvisioning,
        conditions: SimulatedConditions = .none
    ) {
        self.accounts = Dictionary(uniqueKeysWithValues: accounts.map { ($0.account.email, $0) })
        self.hasher = hasher
        self.sessions = sessions
        self.profiles = profiles
        self.conditions = conditions
    }

    public func signUp(email: String, displayName: String, password: String) async throws -> Account {
        try await conditions.apply()
        let email = try Validation.email(email)
        let name = try Validation.displayName(displayName)
        try Validation.password(password)
        guard accounts[email] == nil else { throw AppError(.conflict, "an account with email \(email) already exists") }
        let account = Account(id: .random(), email: email)
        accounts[email] = StoredAccount(account: account, passwordHash: await hasher.hash(password))
        try await profiles.createProfile(for: account, displayName: name)
        return try startSession(for: account)
    }

    public func signIn(email: String, password: String) async throws -> Account {
        try await conditions.apply()
        let email = (try? Validation.email(email)) ?? email
        guard let stored = accounts[email], await hasher.verify(password, against: stored.passwordHash) else {
            throw AppError(.invalidCredentials, "wrong email or password")
        }
        return try startSession(for: stored.account)
    }

    public func signOut() async throws {
        try sessions.save(nil)
    }

    public func currentAccount() async throws -> Account? {
        try await conditions.apply()
        guard let session = try sessions.load(), let stored = accounts[session.email],
              stored.account.id == session.userID else { return nil }
        return stored.account
    }

    public func changePassword(current: String, new: String) async throws {
        try await conditions.apply()
        guard let account = try await currentAccount() else { throw AppError.notSignedIn }
        guard let stored = accounts[account.email], await hasher.verify(current, against: stored.passwordHash) else {
            throw AppError(.invalidCredentials, "the current password is wrong")
        }
        try Validation.password(new)
        accounts[account.email]?.passwordHash = await hasher.hash(new)
    }

    private func startSession(for account: Account) throws -> Account {
        try sessions.save(Session(userID: account.id, email: account.email, token: UUID().uuidString))
        return account
    }
}
