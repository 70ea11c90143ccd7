import Foundation
import Kernel

/// A store of accounts and sessions as `StoredAccountService` uses it: it reads and writes what
/// the service's rules give (`AuthRules`), deciding nothing; a session is kept by its token's
/// digest, never the token. Memory, SQLite and PostgreSQL implement it.
public protocol AccountStore: Sendable {
    /// Stores `account` with `passwordHash`, its profile named `displayName`, and its first
    /// session (`session`, used at `now`), all or none: false, and nothing stored, when the
    /// account's email is taken.
    func create(_ account: Account, displayName: String, passwordHash: String, session: String, at now: Date) async throws -> Bool

    /// The id and password hash of the account of `email` (as `AuthRules.signInKey` keys it), or `nil`.
    func credentials(ofEmail email: String) async throws -> (id: UserID, passwordHash: String)?

    /// The password hash of account `id`, or `nil`.
    func passwordHash(of id: UserID) async throws -> String?

    /// Starts session `session` of account `id`, used at `now`, only if its password hash is
    /// still `passwordHash` (a change committed meanwhile wins) and it is not suspended; false
    /// when it was not started.
    func startSession(_ session: String, of id: UserID, ifPasswordHashIs passwordHash: String, at now: Date) async throws -> Bool

    /// The account of session `session` and when it was last used (as `touch` wrote it), or `nil`.
    func session(_ session: String) async throws -> (account: Account, lastUsed: Date)?

    /// Notes a use of session `session` at `now`.
    func touch(_ session: String, at now: Date) async throws

    /// Ends session `session`; an unknown one is already ended.
    func endSession(_ session: String) async throws

    /// Replaces the password hash of account `id` and ends each of its sessions but `kept`, at once.
    func setPasswordHash(_ passwordHash: String, of id: UserID, keeping kept: String) async throws

    /// Suspends account `id` at `now` and ends every session of it at once, or (`now` nil)
    /// reinstates it; false when there is no such account.
    func setSuspended(_ id: UserID, at now: Date?) async throws -> Bool

    /// Whether account `id` is suspended.
    func isSuspended(_ id: UserID) async throws -> Bool

    /// Deletes account `id` with its sessions and codes at once: its email is free again.
    func delete(_ id: UserID) async throws

    /// Makes account `id` an admin from `now`, or (`now` nil) no longer one, unless it is the
    /// last admin, decided in the same step as the change (two revokes at once leave one
    /// admin); false when refused for that.
    func setAdmin(_ id: UserID, since now: Date?) async throws -> Bool

    /// Account `id` as an admin sees it, or `nil`.
    func record(of id: UserID) async throws -> ManagedAccount?

    /// The account of `email` (as `AuthRules.signInKey` keys it) as an admin sees it, or `nil`.
    func record(ofEmail email: String) async throws -> ManagedAccount?

    /// The accounts by email after `email` (`nil`: from the first), at most `limit`.
    func records(after email: String?, limit: Int) async throws -> [ManagedAccount]
}
