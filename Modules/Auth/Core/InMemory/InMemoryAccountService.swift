import Foundation
import Kernel

/// Accounts and sessions kept in process memory: the memory backend and unit tests. Sessions
/// live as long as the process, like everything else in memory.
public actor InMemoryAccountService: AccountService {
    private struct StoredSession {
        let userID: UserID
        var lastUsed: Date
    }

    private var accounts: [String: StoredAccount]
    /// Sessions by token digest.
    private var sessions: [String: StoredSession] = [:]
    /// Emails of sign-ups under way.
    private var signingUp: Set<String> = []
    private let hasher: any PasswordHasher
    private let digest: any TokenDigest
    private let profiles: any ProfileProvisioning
    private let clock: any WallClock
    private let idleLimit: TimeInterval
    private let conditions: SimulatedConditions

    /// Creates the service with seeded accounts.
    public init(
        accounts: [StoredAccount] = [],
        hasher: any PasswordHasher,
        digest: any TokenDigest,
        profiles: any ProfileProvisioning,
        clock: any WallClock = SystemWallClock(),
        idleLimit: TimeInterval = AuthRules.defaultIdleLimit,
        conditions: SimulatedConditions = .none
    ) {
        self.accounts = Dictionary(uniqueKeysWithValues: accounts.map { ($0.account.email, $0) })
        self.hasher = hasher
        self.digest = digest
        self.profiles = profiles
        self.clock = clock
        self.idleLimit = idleLimit
        self.conditions = conditions
    }

    public func signUp(email: String, displayName: String, password: String) async throws -> IssuedSession {
        try await conditions.apply()
        let (email, name) = try AuthRules.signUp(email: email, displayName: displayName, password: password)
        guard accounts[email] == nil, !signingUp.contains(email) else { throw AuthRules.emailTaken(email) }
        // Reserved across the suspensions below, so that a second sign-up with the email waits for none of them.
        signingUp.insert(email)
        defer { signingUp.remove(email) }
        let account = Account(id: .random(), email: email)
        let hash = try await hasher.hash(password)
        try await profiles.createProfile(for: account, displayName: name)
        accounts[email] = StoredAccount(account: account, passwordHash: hash)
        return startSession(for: account)
    }

    public func signIn(email: String, password: String) async throws -> IssuedSession {
        try await conditions.apply()
        let stored = accounts[AuthRules.signInKey(email)]
        guard try await hasher.verify(password, against: AuthRules.hashToCheck(password, stored: stored?.passwordHash)), let stored,
            // Still the password just checked: a change made during the check wins.
            accounts[stored.account.email]?.passwordHash == stored.passwordHash
        else {
            throw AuthRules.wrongCredentials
        }
        return startSession(for: stored.account)
    }

    public func account(for token: String) async throws -> Account {
        try await conditions.apply()
        let key = digest.digest(token)
        let now = clock.now()
        guard let session = sessions[key], !AuthRules.hasExpired(lastUsed: session.lastUsed, now: now, limit: idleLimit),
            let account = accounts.values.first(where: { $0.account.id == session.userID })?.account
        else {
            sessions[key] = nil
            throw AppError.notSignedIn
        }
        sessions[key]?.lastUsed = now
        return account
    }

    public func revoke(token: String) async throws {
        sessions[digest.digest(token)] = nil
    }

    public func changePassword(token: String, current: String, new: String) async throws {
        let account = try await account(for: token)
        guard try await hasher.verify(current, against: AuthRules.hashToCheck(current, stored: accounts[account.email]?.passwordHash)) else {
            throw AuthRules.wrongCurrentPassword
        }
        try Validation.password(new)
        accounts[account.email]?.passwordHash = try await hasher.hash(new)
        let kept = digest.digest(token)
        sessions = sessions.filter { $0.key == kept || $0.value.userID != account.id }
    }

    /// Issues a session for an existing account without a password: the memory backend's demo
    /// user, when Auth is not among the enabled features.
    public func startSession(for account: Account) -> IssuedSession {
        let token = SessionToken.generate()
        sessions[digest.digest(token)] = StoredSession(userID: account.id, lastUsed: clock.now())
        return IssuedSession(account: account, token: token)
    }
}
