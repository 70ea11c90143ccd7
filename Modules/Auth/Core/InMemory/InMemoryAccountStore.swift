import Foundation
import Kernel

/// Accounts and sessions kept in process memory: the memory backend and unit tests, under
/// `StoredAccountService`. Sessions live as long as the process, like everything else in memory.
public actor InMemoryAccountStore: AccountStore {
    private var accounts: [String: StoredAccount]
    /// Sessions by token digest: whose, and when last used.
    private var sessions: [String: (userID: UserID, lastUsed: Date)] = [:]
    /// Emails of sign-ups under way.
    private var signingUp: Set<String> = []
    private var suspended: [UserID: Date] = [:]
    private var admins: [UserID: Date] = [:]
    private var created: [UserID: Date] = [:]
    private let profiles: any ProfileProvisioning
    private let conditions: SimulatedConditions

    /// Creates the store with seeded accounts, made at `seededAt`, of which those of `admins`
    /// are admins; a new account's profile is made by `profiles`; sign-ups, sign-ins and
    /// sessions looked up go through `conditions`.
    public init(
        accounts: [StoredAccount] = [], admins: Set<UserID> = [], seededAt: Date = Date(), profiles: any ProfileProvisioning,
        conditions: SimulatedConditions = .none
    ) {
        self.accounts = Dictionary(uniqueKeysWithValues: accounts.map { ($0.account.email, $0) })
        created = Dictionary(uniqueKeysWithValues: accounts.map { ($0.account.id, seededAt) })
        self.admins = Dictionary(uniqueKeysWithValues: admins.map { ($0, seededAt) })
        self.profiles = profiles
        self.conditions = conditions
    }

    public func create(_ account: Account, displayName: String, passwordHash: String, session: String, at now: Date) async throws -> Bool {
        try await conditions.apply()
        guard accounts[account.email] == nil, !signingUp.contains(account.email) else { return false }
        // Reserved across the profile's creation, so that a second sign-up with the email is refused meanwhile.
        signingUp.insert(account.email)
        defer { signingUp.remove(account.email) }
        try await profiles.createProfile(for: account, displayName: displayName)
        accounts[account.email] = StoredAccount(account: account, passwordHash: passwordHash)
        created[account.id] = now
        sessions[session] = (account.id, now)
        return true
    }

    public func credentials(ofEmail email: String) async throws -> (id: UserID, passwordHash: String)? {
        try await conditions.apply()
        return accounts[email].map { ($0.account.id, $0.passwordHash) }
    }

    public func passwordHash(of id: UserID) -> String? { account(id)?.passwordHash }

    public func startSession(_ session: String, of id: UserID, ifPasswordHashIs passwordHash: String, at now: Date) -> Bool {
        guard account(id)?.passwordHash == passwordHash, suspended[id] == nil else { return false }
        sessions[session] = (id, now)
        return true
    }

    public func session(_ session: String) async throws -> (account: Account, lastUsed: Date)? {
        try await conditions.apply()
        guard let found = sessions[session], let account = account(found.userID)?.account else { return nil }
        return (account, found.lastUsed)
    }

    public func touch(_ session: String, at now: Date) { sessions[session]?.lastUsed = now }

    public func endSession(_ session: String) { sessions[session] = nil }

    public func setPasswordHash(_ passwordHash: String, of id: UserID, keeping kept: String) {
        guard let email = account(id)?.account.email else { return }
        accounts[email]?.passwordHash = passwordHash
        sessions = sessions.filter { $0.key == kept || $0.value.userID != id }
    }

    public func setSuspended(_ id: UserID, at now: Date?) -> Bool {
        guard account(id) != nil else { return false }
        suspended[id] = now
        if now != nil { sessions = sessions.filter { $0.value.userID != id } }
        return true
    }

    public func isSuspended(_ id: UserID) -> Bool { suspended[id] != nil }

    public func delete(_ id: UserID) {
        guard let email = account(id)?.account.email else { return }
        accounts[email] = nil
        (suspended[id], admins[id], created[id]) = (nil, nil, nil)
        sessions = sessions.filter { $0.value.userID != id }
    }

    public func setAdmin(_ id: UserID, since now: Date?) -> Bool {
        if let now {
            admins[id] = admins[id] ?? now
        } else {
            guard admins[id] == nil || admins.count > 1 else { return false }
            admins[id] = nil
        }
        return true
    }

    public func record(of id: UserID) -> ManagedAccount? { account(id).map { record($0.account) } }

    public func record(ofEmail email: String) -> ManagedAccount? { accounts[email].map { record($0.account) } }

    public func records(after email: String?, limit: Int) -> [ManagedAccount] {
        accounts.keys.filter { $0 > email ?? "" }.sorted().prefix(limit).compactMap { accounts[$0].map { record($0.account) } }
    }

    /// Issues a session for an existing account without a password, its token kept as `digest`
    /// gives it: the memory backend's demo user, when Auth is not among the enabled features.
    public func startSession(for account: Account, digest: any TokenDigest, at now: Date) -> IssuedSession {
        let token = SessionToken.generate()
        sessions[digest.digest(token)] = (account.id, now)
        return IssuedSession(account: account, token: token)
    }

    private func account(_ id: UserID) -> StoredAccount? { accounts.values.first { $0.account.id == id } }

    private func record(_ account: Account) -> ManagedAccount {
        ManagedAccount(
            id: account.id, email: account.email, createdAt: created[account.id] ?? .distantPast, adminSince: admins[account.id],
            suspendedAt: suspended[account.id])
    }
}
