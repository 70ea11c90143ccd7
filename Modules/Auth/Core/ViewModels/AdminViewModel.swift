import Foundation
import Kernel
import Observation

/// Looking after the server (`messageai admin`): its accounts, invitation codes and audit
/// record, for an admin; anyone else sees each call refused.
@MainActor
@Observable
public final class AdminViewModel {
    /// A page of accounts.
    public private(set) var accounts: Loadable<[ManagedAccount]> = .idle
    /// The invitation codes.
    public private(set) var invites: Loadable<[InviteCode]> = .idle
    /// The newest reports.
    public private(set) var reports: Loadable<[MessageReport]> = .idle
    /// The newest entries of the audit record.
    public private(set) var audit: Loadable<[AuditEntry]> = .idle
    /// The outcome of the last action.
    public private(set) var lastAction: Loadable<Outcome> = .idle

    /// What an action gave.
    public enum Outcome: Sendable, Equatable {
        /// The account, as it is after the action (or as looked up).
        case account(ManagedAccount)
        /// A password reset code, to hand to the account's owner.
        case resetCode(String)
        /// An invitation code made, shown only now.
        case invite(code: String, InviteCode)
        /// The invitation code of this id was revoked.
        case revoked(String)
        /// The account of this email was deactivated for good.
        case deactivated(String)
        /// The report, as resolved.
        case resolved(MessageReport)
    }

    private let service: any AdminService

    /// Creates the view model over the caller's admin service.
    public init(service: any AdminService) { self.service = service }

    /// Loads the accounts by email after `email`, at most `limit`.
    public func loadAccounts(after email: String?, limit: Int) async {
        accounts = .loading
        accounts = await .from { try await service.accounts(after: email, limit: limit) }
    }

    /// Looks up the account of `email`.
    public func show(email: String) async {
        await act { .account(try await service.account(email: email)) }
    }

    /// Suspends the account of `email`, or reinstates it.
    public func setSuspended(email: String, _ suspending: Bool) async {
        await act { .account(try await service.setSuspended(email: email, suspending)) }
    }

    /// Deactivates the account of `email` for good (`AdminService.deactivate`).
    public func deactivate(email: String) async {
        await act {
            try await service.deactivate(email: email)
            return .deactivated(email)
        }
    }

    /// Makes the account of `email` an admin, or no longer one.
    public func setAdmin(email: String, _ granting: Bool) async {
        await act { .account(try await service.setAdmin(email: email, granting)) }
    }

    /// Issues a password reset code for the account of `email`.
    public func resetPassword(email: String) async {
        await act { .resetCode(try await service.issuePasswordReset(email: email)) }
    }

    /// Makes an invitation code of `uses` sign-ups lasting `lifetime` (`30m`, `12h`, `7d`).
    public func createInvite(uses: Int, lifetime: String) async {
        await act {
            let made = try await service.createInvite(uses: uses, lifetime: try RegistrationRules.lifetime(lifetime))
            return .invite(code: made.code, made.invite)
        }
    }

    /// Loads the invitation codes.
    public func loadInvites() async {
        invites = .loading
        invites = await .from { try await service.invites() }
    }

    /// Revokes the invitation code `id`.
    public func revokeInvite(id: String) async {
        await act {
            try await service.revokeInvite(id: id)
            return .revoked(id)
        }
    }

    /// Loads the newest `limit` reports: open ones, or all.
    public func loadReports(includingResolved: Bool, limit: Int) async {
        reports = .loading
        reports = await .from { try await service.reports(includingResolved: includingResolved, limit: limit) }
    }

    /// Resolves report `id`, deleting its message for everyone or dismissing it.
    public func resolveReport(id: String, deletingMessage: Bool) async {
        await act { .resolved(try await service.resolveReport(id: id, deletingMessage: deletingMessage)) }
    }

    /// Loads the newest `limit` entries of the audit record.
    public func loadAudit(limit: Int) async {
        audit = .loading
        audit = await .from { try await service.auditEntries(limit: limit) }
    }

    private func act(_ action: () async throws -> Outcome) async {
        lastAction = .loading
        lastAction = await .from(action)
    }
}
