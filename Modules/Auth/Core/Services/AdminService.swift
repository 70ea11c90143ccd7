import Foundation
import Kernel

// arch-check: allow naming.in-memory-impl: StoredAdminService over InMemoryAccountStore, InMemoryRegistrationCodes, InMemoryResetCodes and InMemoryAuditStore is the in-memory one.
/// Looking after a server: its accounts (list, show, suspend, reinstate, admin or not, a
/// password reset code), its invitation codes and the audit record. Each call is an admin's:
/// anyone else gets `AdminRules.notAdmin` whatever they ask; each change is recorded in the
/// audit record. Implemented by `StoredAdminService` (the store: an operator's command, a
/// server's routes, the memory backend) and `RemoteAdminService` (the admin API).
public protocol AdminService: Sendable {
    /// The accounts by email after `email` (none: from the first), at most `limit` (1…1,000).
    func accounts(after email: String?, limit: Int) async throws -> [ManagedAccount]

    /// The account of `email`.
    /// - Throws: `.notFound` when no account has it.
    func account(email: String) async throws -> ManagedAccount

    /// Suspends the account of `email` (every session of it ends at once, on every instance
    /// within about a second, and it signs in no more) or reinstates it.
    /// - Throws: `.notFound` when no account has it.
    func setSuspended(email: String, _ suspending: Bool) async throws -> ManagedAccount

    /// Makes the account of `email` an admin, or no longer one.
    /// - Throws: `.notFound` when no account has it; `.conflict` for the last admin.
    func setAdmin(email: String, _ granting: Bool) async throws -> ManagedAccount

    /// Deactivates the account of `email` for good, as its owner's `deleteAccount` does: its
    /// messages are deleted for everyone, its profile becomes "Deleted user", its sessions end
    /// and its email is free. (A suspension is the way back; this is not.)
    /// - Throws: `.notFound` when no account has it; `.conflict` for the last admin.
    func deactivate(email: String) async throws

    /// A one-time password reset code (good for an hour) for the account of `email`, shown once.
    /// - Throws: `.notFound` when no account has it.
    func issuePasswordReset(email: String) async throws -> String

    /// Makes an invitation code of `uses` sign-ups lasting `lifetime`; the code is shown once.
    /// - Throws: `.invalidInput` outside 1…10,000 uses or a minute to a year.
    func createInvite(uses: Int, lifetime: TimeInterval) async throws -> (code: String, invite: InviteCode)

    /// Every invitation code kept, newest first.
    func invites() async throws -> [InviteCode]

    /// Revokes the invitation code `id`.
    /// - Throws: `.notFound` when there is none.
    func revokeInvite(id: String) async throws

    /// The newest `limit` (1…1,000) reports, newest first: the open ones, or all.
    func reports(includingResolved: Bool, limit: Int) async throws -> [MessageReport]

    /// Resolves report `id`: dismissed, or (`deletingMessage`) with its message deleted for
    /// everyone. Resolving it again changes nothing.
    /// - Throws: `.notFound` for no such report.
    func resolveReport(id: String, deletingMessage: Bool) async throws -> MessageReport

    /// The newest `limit` (1…1,000) entries of the audit record, newest first.
    func auditEntries(limit: Int) async throws -> [AuditEntry]
}
