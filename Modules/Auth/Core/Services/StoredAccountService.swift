import Foundation
import Kernel

/// Accounts and sessions over a store (`AccountStore`: memory's, SQLite's or PostgreSQL's),
/// written once for all three: what a sign-up, a sign-in and a password change check, when a
/// session has expired and when its use is written, and what a store keeps of a token (its
/// digest alone).
public struct StoredAccountService: AccountService {
    private let store: any AccountStore
    private let hasher: any PasswordHasher
    private let digest: any TokenDigest
    private let clock: any WallClock
    private let idleLimit: TimeInterval

    /// Creates the service over `store`: passwords hashed by `hasher`, tokens kept as `digest`
    /// gives them, sessions ending after `idleLimit` unused by `clock`.
    public init(
        store: any AccountStore, hasher: any PasswordHasher, digest: any TokenDigest, clock: any WallClock = SystemWallClock(),
        idleLimit: TimeInterval = AuthRules.defaultIdleLimit
    ) {
        self.store = store
        self.hasher = hasher
        self.digest = digest
        self.clock = clock
        self.idleLimit = idleLimit
    }

    public func signUp(email: String, displayName: String, password: String) async throws -> IssuedSession {
        let (email, name) = try AuthRules.signUp(email: email, displayName: displayName, password: password)
        let account = Account(id: .random(), email: email)
        let hash = try await hasher.hash(password)
        let token = SessionToken.generate()
        guard try await store.create(account, displayName: name, passwordHash: hash, session: digest.digest(token), at: clock.now()) else {
            throw AuthRules.emailTaken(email)
        }
        return IssuedSession(account: account, token: token)
    }

    public func signIn(email: String, password: String) async throws -> IssuedSession {
        let email = AuthRules.signInKey(email)
        let stored = try await store.credentials(ofEmail: email)
        guard try await hasher.verify(password, against: AuthRules.hashToCheck(password, stored: stored?.passwordHash)), let stored else {
            throw AuthRules.wrongCredentials
        }
        let token = SessionToken.generate()
        guard try await store.startSession(digest.digest(token), of: stored.id, ifPasswordHashIs: stored.passwordHash, at: clock.now()) else {
            throw AuthRules.wrongCredentials
        }
        return IssuedSession(account: Account(id: stored.id, email: email), token: token)
    }

    public func account(for token: String) async throws -> Account {
        let (session, now) = (digest.digest(token), clock.now())
        guard let found = try await store.session(session) else { throw AppError.notSignedIn }
        if AuthRules.hasExpired(lastUsed: found.lastUsed, now: now, limit: idleLimit) {
            try await store.endSession(session)
            throw AppError.notSignedIn
        }
        if now.timeIntervalSince(found.lastUsed) > AuthRules.lastUseGranularity { try await store.touch(session, at: now) }
        return found.account
    }

    public func revoke(token: String) async throws {
        try await store.endSession(digest.digest(token))
    }

    public func changePassword(token: String, current: String, new: String) async throws {
        let account = try await account(for: token)
        let hash = try await store.passwordHash(of: account.id)
        guard try await hasher.verify(current, against: AuthRules.hashToCheck(current, stored: hash)) else { throw AuthRules.wrongCurrentPassword }
        try Validation.password(new)
        try await store.setPasswordHash(try await hasher.hash(new), of: account.id, keeping: digest.digest(token))
    }
}
