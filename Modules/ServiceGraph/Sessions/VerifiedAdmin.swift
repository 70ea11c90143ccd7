import Auth
import Foundation
import Kernel

// arch-check: allow naming.service-impl: a decorator over whichever backend's AdminService that keeps the graph's verification cache in step; not a backend of its own.
/// The backend's admin service, with the graph's verification cache kept in step: the sessions
/// of an account suspended through this graph are refused here at once, and what holds them
/// open (a server's events sockets) lets go, not after the cache time.
struct VerifiedAdmin: AdminService {
    let admin: any AdminService
    let verifier: SessionVerifier

    func accounts(after email: String?, limit: Int) async throws -> [ManagedAccount] { try await admin.accounts(after: email, limit: limit) }

    func account(email: String) async throws -> ManagedAccount { try await admin.account(email: email) }

    func setSuspended(email: String, _ suspending: Bool) async throws -> ManagedAccount {
        let account = try await admin.setSuspended(email: email, suspending)
        // No token is empty: every session of the account ends.
        if suspending { verifier.forget(user: account.id, except: "") }
        return account
    }

    func deactivate(email: String) async throws {
        let account = try await admin.account(email: email)
        try await admin.deactivate(email: email)
        verifier.forget(user: account.id, except: "")
    }

    func setAdmin(email: String, _ granting: Bool) async throws -> ManagedAccount { try await admin.setAdmin(email: email, granting) }

    func issuePasswordReset(email: String) async throws -> String { try await admin.issuePasswordReset(email: email) }

    func createInvite(uses: Int, lifetime: TimeInterval) async throws -> (code: String, invite: InviteCode) {
        try await admin.createInvite(uses: uses, lifetime: lifetime)
    }

    func invites() async throws -> [InviteCode] { try await admin.invites() }

    func revokeInvite(id: String) async throws { try await admin.revokeInvite(id: id) }

    func reports(includingResolved: Bool, limit: Int) async throws -> [MessageReport] {
        try await admin.reports(includingResolved: includingResolved, limit: limit)
    }

    func resolveReport(id: String, deletingMessage: Bool) async throws -> MessageReport {
        try await admin.resolveReport(id: id, deletingMessage: deletingMessage)
    }

    func auditEntries(limit: Int) async throws -> [AuditEntry] { try await admin.auditEntries(limit: limit) }
}
