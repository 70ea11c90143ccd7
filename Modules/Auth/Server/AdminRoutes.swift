import Auth
import AuthAPI
import Foundation
import Kernel
import ServerSupport

/// The admin API's routes, answered by the caller's `AdminService`, which refuses anyone but an
/// admin (403) and records each change in the audit record.
public struct AdminRoutes: Sendable {
    private let admin: @Sendable (Caller) -> any AdminService

    /// Creates the routes; `admin` builds the admin service of a caller.
    public init(admin: @escaping @Sendable (Caller) -> any AdminService) { self.admin = admin }

    /// Registers every admin endpoint.
    public func add(to routes: APIRoutes) {
        let admin = admin
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
