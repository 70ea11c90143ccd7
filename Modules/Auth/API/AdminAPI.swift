import Auth
import Foundation
import Kernel

/// The admin API: looking after a server through it (`messageai admin`, or any client), for
/// accounts that are the server's admins. Every endpoint answers anyone else 403, the same
/// whatever was asked. Served by `AdminRoutes`, called by `RemoteAdminService`.
public enum AdminAPI {
    /// The accounts, by email.
    public static let accounts = Endpoint<NoContent, AccountList, PathParameters.None>(
        .get, "/v1/admin/users", "The server's accounts by email: id, email, since when, admin, suspended (admins only)",
        query: [Query.after, Query.limit])
    /// One account.
    public static let account = Endpoint<NoContent, ManagedAccount, PathParameters.None>(
        .get, "/v1/admin/user", "The account of an email (admins only)", query: [Query.email])
    /// Suspends an account.
    public static let suspend = Endpoint<AccountEmail, ManagedAccount, PathParameters.None>(
        .post, "/v1/admin/users/suspend", "Suspend an account: its sessions and sockets end on every instance; it signs in no more (admins only)")
    /// Reinstates an account.
    public static let reinstate = Endpoint<AccountEmail, ManagedAccount, PathParameters.None>(
        .post, "/v1/admin/users/reinstate", "Reinstate a suspended account (admins only)")
    /// Deactivates an account for good.
    public static let deactivate = Endpoint<AccountEmail, NoContent, PathParameters.None>(
        .post, "/v1/admin/users/deactivate",
        "Deactivate an account for good: its messages deleted for everyone, its profile \"Deleted user\", its email free (admins only)",
        successStatus: 204)
    /// Makes an account an admin.
    public static let grant = Endpoint<AccountEmail, ManagedAccount, PathParameters.None>(
        .post, "/v1/admin/users/grant", "Make an account an admin (admins only)")
    /// Makes an account no longer an admin.
    public static let revoke = Endpoint<AccountEmail, ManagedAccount, PathParameters.None>(
        .post, "/v1/admin/users/revoke", "Make an account no longer an admin; 409 for the last admin (admins only)")
    /// Issues a password reset code.
    public static let resetPassword = Endpoint<AccountEmail, ResetCodeReply, PathParameters.None>(
        .post, "/v1/admin/users/reset-password", "A one-time password reset code for an account, good for an hour, shown once (admins only)")
    /// The invitation codes.
    public static let invites = Endpoint<NoContent, InviteList, PathParameters.None>(
        .get, "/v1/admin/invites", "The invitation codes: id, uses, expiry, never the codes (admins only)")
    /// Makes an invitation code.
    public static let createInvite = Endpoint<InviteRequest, CreatedInvite, PathParameters.None>(
        .post, "/v1/admin/invites", "Make an invitation code, shown once (admins only)", successStatus: 201)
    /// Revokes an invitation code.
    public static let revokeInvite = Endpoint<InviteID, NoContent, PathParameters.None>(
        .post, "/v1/admin/invites/revoke", "Revoke an invitation code by its id (admins only)", successStatus: 204)
    /// The reports, for admins.
    public static let reports = Endpoint<NoContent, ReportList, PathParameters.None>(
        .get, "/v1/admin/reports", "Reported messages as they were when reported, newest first: open ones, or all (admins only)",
        query: [Query.all, Query.limit])
    /// Resolves a report.
    public static let resolveReport = Endpoint<ReportResolution, MessageReport, PathParameters.None>(
        .post, "/v1/admin/reports/resolve", "Resolve a report: dismiss it, or delete its message for everyone (admins only)")
    /// Reports a message, for any member who reads it.
    public static let report = Endpoint<ReportRequest, MessageReport, PathParameters.ConversationMessage>(
        .post, "/v1/conversations/{conversation}/messages/{message}/reports",
        "Report a message of another member's to the server's admins (few an hour, from the budget of new conversations)", successStatus: 201)
    /// The audit record.
    public static let audit = Endpoint<NoContent, AuditList, PathParameters.None>(
        .get, "/v1/admin/audit", "What operators and admins did, newest first (admins only)", query: [Query.limit])

    /// Every admin endpoint.
    public static let endpoints = [
        accounts.spec, account.spec, suspend.spec, reinstate.spec, deactivate.spec, grant.spec, revoke.spec, resetPassword.spec, invites.spec,
        createInvite.spec, revokeInvite.spec, reports.spec, resolveReport.spec, report.spec, audit.spec,
    ]

    /// The query parameters the admin endpoints read.
    public enum Query {
        /// Where a page of accounts starts.
        public static let after = QueryParameter("after", .string(maxLength: Validation.maxEmailBytes), "the accounts after this email")
        /// Most on a page.
        public static let limit = QueryParameter("limit", .integer(1...AdminRules.maxPage), "most on the page (default 50)")
        /// Resolved reports too.
        public static let all = QueryParameter("all", .boolean, "resolved reports too (default false)")
        /// Whose account.
        public static let email = QueryParameter(
            "email", .string(minLength: 1, maxLength: Validation.maxEmailBytes), required: true, "its email, or its user id")
    }
}

/// The account an admin action is about.
public struct AccountEmail: WireType, Equatable {
    /// Its email, or its user id.
    public let email: String

    /// Creates the body.
    public init(_ email: String) { self.email = email }

    public static let schema = WireSchema.object([("email", .string(minLength: 1, maxLength: Validation.maxEmailBytes))], required: ["email"])
}

/// A password reset code, shown once.
public struct ResetCodeReply: WireType, Equatable {
    /// The code.
    public let code: String

    /// Creates the reply.
    public init(code: String) { self.code = code }

    public static let schema = WireSchema.object([("code", .string(minLength: 1, maxLength: 64))], required: ["code"])
}

/// Accounts, as admins list them.
public struct AccountList: WireType, Equatable {
    /// The accounts.
    public let accounts: [ManagedAccount]

    /// Creates the reply.
    public init(_ accounts: [ManagedAccount]) { self.accounts = accounts }

    public static let schema = WireSchema.object([("accounts", .array(ManagedAccount.schema, maxItems: AdminRules.maxPage))], required: ["accounts"])
}

/// What makes an invitation code.
public struct InviteRequest: WireType, Equatable {
    /// How many sign-ups it admits.
    public let uses: Int
    /// How long it lasts, in seconds.
    public let lifetime: Int

    /// Creates the body.
    public init(uses: Int, lifetime: Int) {
        self.uses = uses
        self.lifetime = lifetime
    }

    public static let schema = WireSchema.object(
        [("uses", .integer(1...RegistrationRules.maxUses)), ("lifetime", .integer(60...Int(RegistrationRules.maxLifetime)))],
        required: ["uses", "lifetime"])
}

/// An invitation code made: the code, shown only now, and what it is.
public struct CreatedInvite: WireType, Equatable {
    /// The code.
    public let code: String
    /// Its record.
    public let invite: InviteCode

    /// Creates the reply.
    public init(code: String, invite: InviteCode) {
        self.code = code
        self.invite = invite
    }

    public static let schema = WireSchema.object(
        [("code", .string(minLength: 1, maxLength: 64)), ("invite", InviteCode.schema)], required: ["code", "invite"])
}

/// The invitation code an action is about.
public struct InviteID: WireType, Equatable {
    /// Its id.
    public let id: String

    /// Creates the body.
    public init(_ id: String) { self.id = id }

    public static let schema = WireSchema.object([("id", .identifier)], required: ["id"])
}

/// Invitation codes, as admins list them.
public struct InviteList: WireType, Equatable {
    /// Most codes one answer carries.
    public static let maxCodes = 10_000
    /// The codes.
    public let invites: [InviteCode]

    /// Creates the reply.
    public init(_ invites: [InviteCode]) { self.invites = invites }

    public static let schema = WireSchema.object([("invites", .array(InviteCode.schema, maxItems: maxCodes))], required: ["invites"])
}

/// Why a message is reported.
public struct ReportRequest: WireType, Equatable {
    /// The reason, 1–500 characters.
    public let reason: String

    /// Creates the body.
    public init(reason: String) { self.reason = reason }

    public static let schema = WireSchema.object(
        [("reason", .string(minLength: 1, maxLength: Validation.maxReasonBytes))], required: ["reason"])
}

/// What an admin decides of a report.
public struct ReportResolution: WireType, Equatable {
    /// The report.
    public let id: String
    /// Whether its message is deleted for everyone (else the report is dismissed).
    public let deleteMessage: Bool

    /// Creates the body.
    public init(id: String, deleteMessage: Bool) {
        self.id = id
        self.deleteMessage = deleteMessage
    }

    public static let schema = WireSchema.object([("id", .identifier), ("deleteMessage", .boolean)], required: ["id", "deleteMessage"])
}

/// Reports, as admins list them.
public struct ReportList: WireType, Equatable {
    /// The reports, newest first.
    public let reports: [MessageReport]

    /// Creates the reply.
    public init(_ reports: [MessageReport]) { self.reports = reports }

    public static let schema = WireSchema.object([("reports", .array(MessageReport.schema, maxItems: AdminRules.maxPage))], required: ["reports"])
}

extension MessageReport: WireType {
    public static let schema = WireSchema.object(
        [
            ("id", .identifier), ("conversationID", .identifier), ("messageID", .identifier), ("senderID", .identifier),
            ("text", .string(maxLength: Validation.maxMessageBytes)), ("reporterID", .identifier),
            ("reason", .string(maxLength: Validation.maxReasonBytes)), ("reportedAt", .timestamp), ("resolvedAt", .nullable(.timestamp)),
            ("resolution", .nullable(.string(maxLength: 64))),
        ], required: ["id", "conversationID", "messageID", "senderID", "text", "reporterID", "reason", "reportedAt"])
}

/// Entries of the audit record.
public struct AuditList: WireType, Equatable {
    /// The entries, newest first.
    public let entries: [AuditEntry]

    /// Creates the reply.
    public init(_ entries: [AuditEntry]) { self.entries = entries }

    public static let schema = WireSchema.object([("entries", .array(AuditEntry.schema, maxItems: AdminRules.maxPage))], required: ["entries"])
}

extension ManagedAccount: WireType {
    public static let schema = WireSchema.object(
        [
            ("id", .identifier), ("email", .string(maxLength: Validation.maxEmailBytes)), ("createdAt", .timestamp),
            ("adminSince", .nullable(.timestamp)), ("suspendedAt", .nullable(.timestamp)),
        ], required: ["id", "email", "createdAt"])
}

extension InviteCode: WireType {
    public static let schema = WireSchema.object(
        [
            ("id", .identifier), ("uses", .integer(1...RegistrationRules.maxUses)), ("usesLeft", .integer(0...RegistrationRules.maxUses)),
            ("expiresAt", .timestamp), ("createdAt", .timestamp),
        ], required: ["id", "uses", "usesLeft", "expiresAt", "createdAt"])
}

extension AuditEntry: WireType {
    public static let schema = WireSchema.object(
        [("at", .timestamp), ("actor", .string(maxLength: 512)), ("action", .string(maxLength: 64)), ("subject", .string(maxLength: 512))],
        required: ["at", "actor", "action", "subject"])
}
