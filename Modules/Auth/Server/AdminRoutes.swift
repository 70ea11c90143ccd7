import Auth
import AuthAPI
import Foundation
import Kernel
import ServerSupport

/// The admin API's routes, answered by the caller's `AdminService`, which refuses anyone but an
/// admin (403) and records each change in the audit record.
public struct AdminRoutes: Sendable {
    private let admin: @Sendable (Caller) -> any AdminService
    private let reporting: @Sendable (Caller) -> any ReportService

    /// Creates the routes; `admin` builds the admin service of a caller, `reporting` its
    /// reporting of messages.
    public init(admin: @escaping @Sendable (Caller) -> any AdminService, reporting: @escaping @Sendable (Caller) -> any ReportService) {
        self.admin = admin
        self.reporting = reporting
    }

    /// Registers every admin endpoint.
    public func add(to routes: APIRoutes) {
        let (admin, reporting) = (admin, reporting)
        routes.add(AdminAPI.report) { call in
            try await reporting(call.caller).report(call.path.message, in: call.path.conversation, reason: call.body.reason)
        }
        routes.add(AdminAPI.reports) { call in
            ReportList(
                try await admin(call.caller).reports(
                    includingResolved: try call.query(AdminAPI.Query.all, default: false),
                    limit: try call.query(AdminAPI.Query.limit, default: AdminRules.defaultPage)))
        }
        routes.add(AdminAPI.resolveReport) { call in
            try await admin(call.caller).resolveReport(id: call.body.id, deletingMessage: call.body.deleteMessage)
        }
        routes.add(AdminAPI.accounts) { call in
            AccountList(
                try await admin(call.caller).accounts(
                    after: try call.query(AdminAPI.Query.after), limit: try call.query(AdminAPI.Query.limit, default: AdminRules.defaultPage)))
        }
        routes.add(AdminAPI.account) { call in try await admin(call.caller).account(email: try call.required(AdminAPI.Query.email)) }
        routes.add(AdminAPI.suspend) { call in try await admin(call.caller).setSuspended(email: call.body.email, true) }
        routes.add(AdminAPI.reinstate) { call in try await admin(call.caller).setSuspended(email: call.body.email, false) }
        routes.add(AdminAPI.deactivate) { call in
            try await admin(call.caller).deactivate(email: call.body.email)
            return NoContent()
        }
        routes.add(AdminAPI.grant) { call in try await admin(call.caller).setAdmin(email: call.body.email, true) }
        routes.add(AdminAPI.revoke) { call in try await admin(call.caller).setAdmin(email: call.body.email, false) }
        routes.add(AdminAPI.resetPassword) { call in ResetCodeReply(code: try await admin(call.caller).issuePasswordReset(email: call.body.email)) }
        routes.add(AdminAPI.invites) { call in InviteList(try await admin(call.caller).invites()) }
        routes.add(AdminAPI.createInvite) { call in
            let made = try await admin(call.caller).createInvite(uses: call.body.uses, lifetime: TimeInterval(call.body.lifetime))
            return CreatedInvite(code: made.code, invite: made.invite)
        }
        routes.add(AdminAPI.revokeInvite) { call in
            try await admin(call.caller).revokeInvite(id: call.body.id)
            return NoContent()
        }
        routes.add(AdminAPI.audit) { call in
            AuditList(try await admin(call.caller).auditEntries(limit: try call.query(AdminAPI.Query.limit, default: AdminRules.defaultPage)))
        }
    }
}
