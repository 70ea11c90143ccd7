import Foundation
import Kernel

/// Looking after a server over its stores, written once for memory, SQLite and PostgreSQL: the
/// operator's `messageai-server admin` on the store, and the admin API for a signed-in admin.
/// Each change is recorded in the audit record before it is answered.
public struct StoredAdminService: AdminService {
    /// Who acts.
    public enum Actor: Sendable {
        /// The server's operator on its store (`operator:USER@HOST`): always allowed, the way the
        /// first admin is made.
        case `operator`(String)
        /// A signed-in account: allowed while it is an admin, checked at each call.
        case account(Caller)
    }

    /// What the admin side works over: the accounts, the invitation codes, the password resets
    /// and the audit record of one store.
    public struct Stores: Sendable {
        let accounts: any AccountStore
        let codes: (any RegistrationCodeStore)?
        let resets: PasswordResets?
        let deletion: AccountDeletion
        let reports: any ReportStore
        let reported: any ReportedMessages
        let shown: any SuspensionShown
        let audit: any AuditStore
        let digest: any TokenDigest
        let clock: any WallClock
        let log: @Sendable (AuditEntry) -> Void
        let everyoneInvites: UsageBudget?

        /// The stores; `codes` and `resets` are `nil` where the store keeps none; accounts deleted
        /// by `deletion`; reports kept in `reports`, their messages deleted through `reported`;
        /// suspensions shown to others through `shown`; each entry of the audit record is also
        /// handed to `log`, the process's log.
        public init(
            accounts: any AccountStore, codes: (any RegistrationCodeStore)?, resets: PasswordResets?, deletion: AccountDeletion,
            reports: any ReportStore, reported: any ReportedMessages, shown: any SuspensionShown, audit: any AuditStore, digest: any TokenDigest,
            clock: any WallClock, log: @escaping @Sendable (AuditEntry) -> Void, everyoneInvites: UsageBudget? = nil
        ) {
            self.accounts = accounts
            self.codes = codes
            self.resets = resets
            self.deletion = deletion
            self.reports = reports
            self.reported = reported
            self.shown = shown
            self.audit = audit
            self.digest = digest
            self.clock = clock
            self.log = log
            self.everyoneInvites = everyoneInvites
        }

        /// The service of `actor` over these stores.
        public func service(acting actor: Actor) -> StoredAdminService { StoredAdminService(stores: self, actor: actor) }

        /// Reporting messages to these stores' admins, for `caller`, paid from `budget`.
        public func reports(for caller: Caller, budget: UsageBudget) -> StoredReportService {
            StoredReportService(store: reports, messages: reported, caller: caller, clock: clock, budget: budget)
        }
    }

    private let stores: Stores
    private let actor: Actor

    public func accounts(after email: String?, limit: Int) async throws -> [ManagedAccount] {
        _ = try await allowed()
        return try await stores.accounts.records(after: email.map(AuthRules.signInKey), limit: try AdminRules.page(limit))
    }

    public func account(email: String) async throws -> ManagedAccount {
        _ = try await allowed()
        return try await record(email)
    }

    public func setSuspended(email: String, _ suspending: Bool) async throws -> ManagedAccount {
        let actor = try await allowed()
        let account = try await record(email)
        guard try await stores.accounts.setSuspended(account.id, at: suspending ? stores.clock.now() : nil) else { throw AdminRules.noAccount }
        try await stores.shown.setSuspended(account.id, suspending)
        try await record(suspending ? "users.suspend" : "users.reinstate", AdminRules.subject(account), by: actor)
        return try await record(email)
    }

    public func setAdmin(email: String, _ granting: Bool) async throws -> ManagedAccount {
        let actor = try await allowed()
        let account = try await record(email)
        guard try await stores.accounts.setAdmin(account.id, since: granting ? stores.clock.now() : nil) else { throw AdminRules.lastAdmin }
        try await record(granting ? "admins.grant" : "admins.revoke", AdminRules.subject(account), by: actor)
        return try await record(email)
    }

    public func deactivate(email: String) async throws {
        let actor = try await allowed()
        let account = try await record(email)
        try await stores.deletion.delete(account.id)
        try await record("users.deactivate", AdminRules.subject(account), by: actor)
    }

    public func issuePasswordReset(email: String) async throws -> String {
        let actor = try await allowed()
        guard let resets = stores.resets else { throw AppError(.usage, "password resets are kept by a server's store") }
        let account = try await record(email)
        let code = try await resets.issue(for: account.id)
        try await record("users.reset-password", AdminRules.subject(account), by: actor)
        return code
    }

    public func createInvite(uses: Int, lifetime: TimeInterval) async throws -> (code: String, invite: InviteCode) {
        let actor = try await allowedToInvite(uses: uses, lifetime: lifetime)
        let (code, record) = try await RegistrationRules.create(
            uses: uses, lifetime: lifetime, in: try codes(), digest: stores.digest, now: stores.clock.now())
        try await self.record("invites.create", "code \(record.id) (\(record.uses) uses)", by: actor)
        return (code, record.listed)
    }

    public func invites() async throws -> [InviteCode] {
        _ = try await allowed()
        return try await codes().codes().map(\.listed)
    }

    public func revokeInvite(id: String) async throws {
        let actor = try await allowed()
        guard try await codes().revoke(id: id) else { throw AppError(.notFound, "no code \(id)") }
        try await record("invites.revoke", "code \(id)", by: actor)
    }

    public func reports(includingResolved: Bool, limit: Int) async throws -> [MessageReport] {
        _ = try await allowed()
        return try await stores.reports.reports(includingResolved: includingResolved, limit: try AdminRules.page(limit))
    }

    public func resolveReport(id: String, deletingMessage: Bool) async throws -> MessageReport {
        let actor = try await allowed()
        guard let open = try await stores.reports.report(id) else { throw ReportRules.noReport(id) }
        guard open.resolvedAt == nil else { return open }
        if deletingMessage { try await stores.reported.deleteForEveryone(open.messageID, in: open.conversationID) }
        let resolution = deletingMessage ? ReportRules.messageDeleted : ReportRules.dismissed
        guard let resolved = try await stores.reports.resolve(id, at: stores.clock.now(), resolution: resolution) else {
            throw ReportRules.noReport(id)
        }
        try await record(
            deletingMessage ? "reports.delete-message" : "reports.dismiss", "report \(id) (message \(open.messageID) of \(open.senderID))", by: actor)
        return resolved
    }

    public func auditEntries(limit: Int) async throws -> [AuditEntry] {
        _ = try await allowed()
        return try await stores.audit.entries(limit: try AdminRules.page(limit))
    }

    /// Who acts, as the audit record names them.
    /// - Throws: `AdminRules.notAdmin` for an account that is not an admin (or suspended);
    ///   `.notSignedIn` for a caller who is nobody.
    private func allowed() async throws -> String {
        switch actor {
        case .operator(let name): return name
        case .account(let caller):
            guard let me = try await stores.accounts.record(of: try await caller.id()), me.adminSince != nil, me.suspendedAt == nil else {
                throw AdminRules.notAdmin
            }
            return AdminRules.actor(me)
        }
    }

    /// Who makes a code, as the audit record names them: an admin or the operator, or, where
    /// everyone may invite, a member (`member:EMAIL`), whose codes are smaller and paid for.
    private func allowedToInvite(uses: Int, lifetime: TimeInterval) async throws -> String {
        do {
            return try await allowed()
        } catch let refused as AppError where refused == AdminRules.notAdmin {
            guard let budget = stores.everyoneInvites, case .account(let caller) = actor,
                let me = try await stores.accounts.record(of: try await caller.id()), me.suspendedAt == nil
            else { throw refused }
            guard uses <= AdminRules.memberInviteUses, lifetime <= AdminRules.memberInviteLifetime else { throw AdminRules.memberInviteTooBig }
            try budget.spend(.conversation, by: me.id)
            return "member:\(me.email)"
        }
    }

    /// The account `reference` names: an email, or else a user id (as reports and the audit
    /// record show them).
    private func record(_ reference: String) async throws -> ManagedAccount {
        let found =
            if let email = try? Validation.email(reference) {
                try await stores.accounts.record(ofEmail: email)
            } else {
                try await stores.accounts.record(of: UserID(reference))
            }
        guard let found else { throw AdminRules.noAccount }
        return found
    }

    private func codes() throws -> any RegistrationCodeStore {
        guard let codes = stores.codes else { throw AppError(.usage, "invitation codes are kept by a server's store") }
        return codes
    }

    private func record(_ action: String, _ subject: String, by actor: String) async throws {
        let entry = AuditEntry(at: stores.clock.now(), actor: actor, action: action, subject: subject)
        try await stores.audit.record(entry)
        stores.log(entry)
    }
}
