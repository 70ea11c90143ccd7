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
    private let registration: Registration
    private let resets: PasswordResets?
    private let deletion: AccountDeletion

    /// Creates the service over `store`: passwords hashed by `hasher`, tokens (and invitation
    /// codes) kept as `digest` gives them, sessions ending after `idleLimit` unused by `clock`,
    /// sign-ups admitted as `registration` says, password reset codes kept in `resetCodes`, and
    /// what other features keep of a deleted account removed by `erasure`, and the credentials
    /// of its bots by `bots`.
    public init(
        store: any AccountStore, hasher: any PasswordHasher, digest: any TokenDigest, clock: any WallClock = SystemWallClock(),
        idleLimit: TimeInterval = AuthRules.defaultIdleLimit, registration: Registration = .open, resetCodes: (any ResetCodeStore)? = nil,
        erasure: (any AccountErasure)? = nil, bots: (any BotStore)? = nil
    ) {
        self.store = store
        self.hasher = hasher
        self.digest = digest
        self.clock = clock
        self.idleLimit = idleLimit
        self.registration = registration
        deletion = AccountDeletion(store: store, erasure: erasure, bots: bots)
        resets = resetCodes.map { PasswordResets(accounts: store, codes: $0, hasher: hasher, digest: digest, clock: clock) }
    }

    /// The password resets of this store, where it keeps codes (a server's SQLite or PostgreSQL).
    public var passwordResets: PasswordResets? { resets }

    /// How this store's accounts are deleted, for its admins too.
    public var accountDeletion: AccountDeletion { deletion }

    public func signUp(email: String, displayName: String, password: String, invite: String?) async throws -> IssuedSession {
        let (email, name) = try AuthRules.signUp(email: email, displayName: displayName, password: password)
        let taken = try await admit(invite)
        do {
            let account = Account(id: .random(), email: email)
            let hash = try await hasher.hash(password)
            let token = SessionToken.generate()
            guard try await store.create(account, displayName: name, passwordHash: hash, session: digest.digest(token), at: clock.now()) else {
                throw AuthRules.emailTaken(email)
            }
            return IssuedSession(account: account, token: token)
        } catch {
            if let taken { try? await registration.codes?.giveBack(taken) }
            throw error
        }
    }

    /// Admits a sign-up as the server's `registration` says: on an `invite` server by taking a
    /// use of `invite`'s code (its digest returned, to give back if the sign-up then fails).
    private func admit(_ invite: String?) async throws -> String? {
        switch registration.mode {
        case .open: return nil
        case .closed: throw RegistrationRules.closed
        case .invite:
            guard let invite, !invite.isEmpty, let codes = registration.codes else { throw RegistrationRules.inviteOnly }
            let code = digest.digest(invite)
            guard try await codes.take(code, at: clock.now()) else { throw RegistrationRules.refused }
            return code
        }
    }

    public func signIn(email: String, password: String) async throws -> IssuedSession {
        let email = AuthRules.signInKey(email)
        let stored = try await store.credentials(ofEmail: email)
        guard try await hasher.verify(password, against: AuthRules.hashToCheck(password, stored: stored?.passwordHash)), let stored else {
            throw AuthRules.wrongCredentials
        }
        if try await store.isSuspended(stored.id) { throw AuthRules.suspended }
        let token = SessionToken.generate()
        guard try await store.startSession(digest.digest(token), of: stored.id, ifPasswordHashIs: stored.passwordHash, at: clock.now()) else {
            throw try await store.isSuspended(stored.id) ? AuthRules.suspended : AuthRules.wrongCredentials
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

    public func deleteAccount(token: String, password: String) async throws {
        let account = try await account(for: token)
        let hash = try await store.passwordHash(of: account.id)
        guard try await hasher.verify(password, against: AuthRules.hashToCheck(password, stored: hash)) else { throw AuthRules.wrongPassword }
        try await deletion.delete(account.id)
    }

    public func resetPassword(code: String, newPassword: String) async throws -> IssuedSession {
        guard let resets else { throw AppError(.forbidden, "password reset codes are a server's (messageai-server admin users reset-password)") }
        return try await resets.redeem(code, newPassword: newPassword)
    }
}
