import Auth
import AuthAPI
import Foundation
import Kernel
import RemoteClient

/// Looking after the MessageAI server through its admin API, as one caller, whom the server
/// checks is an admin.
public struct RemoteAdminService: AdminService {
    private let connection: RemoteConnection
    private let caller: Caller

    /// Creates the service for `caller` over the process's connection.
    public init(connection: RemoteConnection, caller: Caller) {
        self.connection = connection
        self.caller = caller
    }

    public func accounts(after email: String?, limit: Int) async throws -> [ManagedAccount] {
        var query = [AdminAPI.Query.limit: String(try AdminRules.page(limit))]
        query[AdminAPI.Query.after] = email
        return try await connection.call(AdminAPI.accounts, query: query, body: NoContent(), as: caller).accounts
    }

    public func account(email: String) async throws -> ManagedAccount {
        try await connection.call(AdminAPI.account, query: [AdminAPI.Query.email: email], body: NoContent(), as: caller)
    }

    public func setSuspended(email: String, _ suspending: Bool) async throws -> ManagedAccount {
        try await connection.call(suspending ? AdminAPI.suspend : AdminAPI.reinstate, body: AccountEmail(email), as: caller)
    }

    public func setAdmin(email: String, _ granting: Bool) async throws -> ManagedAccount {
        try await connection.call(granting ? AdminAPI.grant : AdminAPI.revoke, body: AccountEmail(email), as: caller)
    }

    public func deactivate(email: String) async throws {
        _ = try await connection.call(AdminAPI.deactivate, body: AccountEmail(email), as: caller)
    }

    public func issuePasswordReset(email: String) async throws -> String {
        try await connection.call(AdminAPI.resetPassword, body: AccountEmail(email), as: caller).code
    }

    public func createInvite(uses: Int, lifetime: TimeInterval) async throws -> (code: String, invite: InviteCode) {
        let made = try await connection.call(AdminAPI.createInvite, body: InviteRequest(uses: uses, lifetime: Int(lifetime)), as: caller)
        return (made.code, made.invite)
    }

    public func invites() async throws -> [InviteCode] {
        try await connection.call(AdminAPI.invites, body: NoContent(), as: caller).invites
    }

    public func revokeInvite(id: String) async throws {
        _ = try await connection.call(AdminAPI.revokeInvite, body: InviteID(id), as: caller)
    }

    public func reports(includingResolved: Bool, limit: Int) async throws -> [MessageReport] {
        let query = [AdminAPI.Query.limit: String(try AdminRules.page(limit)), AdminAPI.Query.all: String(includingResolved)]
        return try await connection.call(AdminAPI.reports, query: query, body: NoContent(), as: caller).reports
    }

    public func resolveReport(id: String, deletingMessage: Bool) async throws -> MessageReport {
        try await connection.call(AdminAPI.resolveReport, body: ReportResolution(id: id, deleteMessage: deletingMessage), as: caller)
    }

    public func auditEntries(limit: Int) async throws -> [AuditEntry] {
        try await connection.call(AdminAPI.audit, query: [AdminAPI.Query.limit: String(try AdminRules.page(limit))], body: NoContent(), as: caller)
            .entries
    }
}
