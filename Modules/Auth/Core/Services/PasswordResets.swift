import Foundation
import Kernel

/// Password resets without mail, for a server: an admin issues a one-time code for an
/// account (`AdminService.issuePasswordReset`), its owner redeems it with a new
/// password (`messageai passwd --reset-code`), which ends every session of the account and signs
/// the owner in. A code is 128 random bits, kept as its digest, good once and for an hour.
public struct PasswordResets: Sendable {
    /// How long a code lasts.
    public static let lifetime: TimeInterval = 3_600
    /// A code unknown, used, expired or replaced by a newer one: one answer for all.
    public static let refused = AppError(.invalidCredentials, "that reset code is not valid (unknown, used or expired)")

    private let accounts: any AccountStore
    private let codes: any ResetCodeStore
    private let hasher: any PasswordHasher
    private let digest: any TokenDigest
    private let clock: any WallClock

    /// Resets over `accounts` and `codes`; passwords hashed by `hasher`, codes and tokens kept as
    /// `digest` gives them, times from `clock`.
    public init(accounts: any AccountStore, codes: any ResetCodeStore, hasher: any PasswordHasher, digest: any TokenDigest, clock: any WallClock) {
        self.accounts = accounts
        self.codes = codes
        self.hasher = hasher
        self.digest = digest
        self.clock = clock
    }

    /// A new code for account `id`, replacing any it had; shown once.
    public func issue(for id: UserID) async throws -> String {
        let code = RegistrationRules.newCode(prefix: "reset-")
        try await codes.replace(digest.digest(code), for: id, until: clock.now() + Self.lifetime)
        return code
    }

    /// Redeems `code`: the account's password becomes `newPassword`, every session of it ends,
    /// and a new one is issued.
    /// - Throws: `.invalidInput` for a password that breaks the rule (the code is kept);
    ///   `.invalidCredentials` for a code that is not valid.
    public func redeem(_ code: String, newPassword: String) async throws -> IssuedSession {
        try Validation.password(newPassword)
        let hash = try await hasher.hash(newPassword)
        guard let user = try await codes.redeem(digest.digest(code), at: clock.now()) else { throw Self.refused }
        let token = SessionToken.generate(), session = digest.digest(token)
        try await accounts.setPasswordHash(hash, of: user, keeping: session)
        guard try await accounts.startSession(session, of: user, ifPasswordHashIs: hash, at: clock.now()),
            let started = try await accounts.session(session)
        else { throw Self.refused }
        return IssuedSession(account: started.account, token: token)
    }
}
