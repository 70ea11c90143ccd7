import Auth
import Kernel
import Synchronization
import TestSupport
import Testing

/// Looking after a server over memory's stores: only admins (and the operator) may, every change
/// is recorded, and there is always an admin.
@Suite("StoredAdminService over memory's stores", .timeLimit(.minutes(1)))
struct AdminServiceTests {
    let clock = TestClock()
    let store = InMemoryAccountStore(profiles: RecordingProvisioning())
    let accounts: StoredAccountService
    let audit = InMemoryAuditStore()
    let logged = LoggedEntries()
    let reportStore = InMemoryReportStore()
    let messages = FixedMessages()
    let shown = ShownSuspensions()
    let stores: StoredAdminService.Stores

    init() {
        accounts = StoredAccountService(
            store: store, hasher: PlainHasher(), digest: MarkedDigest(), clock: clock, resetCodes: InMemoryResetCodes())
        let logged = logged
        stores = StoredAdminService.Stores(
            accounts: store, codes: InMemoryRegistrationCodes(), resets: accounts.passwordResets, deletion: accounts.accountDeletion,
            reports: reportStore, reported: messages, shown: shown, audit: audit, digest: MarkedDigest(),
            clock: clock, log: { entry in logged.entries.withLock { $0.append(entry) } })
    }

    /// The operator on the store.
    var operatorAdmin: StoredAdminService { stores.service(acting: .operator("operator:root@host")) }

    /// The admin service of the account of `issued`.
    func admin(_ issued: IssuedSession) -> StoredAdminService { stores.service(acting: .account(.verified(issued.account.id))) }

    func signUp(_ name: String) async throws -> IssuedSession {
        try await accounts.signUp(email: "\(name)@example.com", displayName: name, password: "password-\(name)")
    }

    @Test("anyone but an admin is refused every call with one answer; the operator makes the first admin, who may then act")
    func onlyAdmins() async throws {
        let ada = try await signUp("ada"), bob = try await signUp("bob")
        let calls: [(String, @Sendable (StoredAdminService) async throws -> Void)] = [
            ("list", { _ = try await $0.accounts(after: nil, limit: 10) }), ("show", { _ = try await $0.account(email: "ada@example.com") }),
            ("show unknown", { _ = try await $0.account(email: "nobody@example.com") }),
            ("suspend", { _ = try await $0.setSuspended(email: "ada@example.com", true) }),
            ("grant", { _ = try await $0.setAdmin(email: "bob@example.com", true) }),
            ("reset", { _ = try await $0.issuePasswordReset(email: "ada@example.com") }),
            ("invite", { _ = try await $0.createInvite(uses: 1, lifetime: 3_600) }), ("invites", { _ = try await $0.invites() }),
            ("revoke invite", { try await $0.revokeInvite(id: "x") }), ("audit", { _ = try await $0.auditEntries(limit: 5) }),
            ("deactivate", { try await $0.deactivate(email: "bob@example.com") }),
            ("reports", { _ = try await $0.reports(includingResolved: true, limit: 5) }),
            ("resolve", { _ = try await $0.resolveReport(id: "x", deletingMessage: true) }),
        ]
        for (name, call) in calls {
            await #expect(throws: AdminRules.notAdmin, "\(name)") { try await call(admin(ada)) }
        }
        await #expect(throws: AppError.notSignedIn) { _ = try await stores.service(acting: .account(.signedOut)).invites() }
        let before = clock.now()
        #expect(try await operatorAdmin.setAdmin(email: "ADA@example.com", true).adminSince.map { $0 >= before } == true)
        #expect(try await admin(ada).accounts(after: nil, limit: 10).map(\.email) == ["ada@example.com", "bob@example.com"])
        #expect(try await admin(ada).setAdmin(email: "bob@example.com", true).adminSince != nil)
        let entries = try await admin(bob).auditEntries(limit: 10)
        #expect(entries.map(\.actor) == ["admin:ada@example.com", "operator:root@host"])
        #expect(entries.map(\.action) == ["admins.grant", "admins.grant"])
        #expect(entries.first?.subject == "bob@example.com (\(bob.account.id))")
        #expect(logged.entries.withLock { $0 }.reversed() == entries, "each entry is also written to the process's log")
        _ = try await operatorAdmin.setSuspended(email: "bob@example.com", true)
        await #expect(throws: AdminRules.notAdmin, "a suspended admin acts no more") { try await admin(bob).invites() }
    }

    @Test("the last admin cannot be revoked, even by two revokes at once; with two, one may go")
    func lastAdmin() async throws {
        let ada = try await signUp("ada"), _ = try await signUp("bob")
        _ = try await operatorAdmin.setAdmin(email: "ada@example.com", true)
        await #expect(throws: AdminRules.lastAdmin) { try await admin(ada).setAdmin(email: "ada@example.com", false) }
        _ = try await operatorAdmin.setAdmin(email: "bob@example.com", true)
        let operatorAdmin = operatorAdmin
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for email in ["ada@example.com", "bob@example.com"] {
                group.addTask { (try? await operatorAdmin.setAdmin(email: email, false)) != nil }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1, "one of two revokes at once goes through: \(outcomes)")
        #expect(try await operatorAdmin.accounts(after: nil, limit: 10).filter { $0.adminSince != nil }.count == 1)
        await #expect(throws: AdminRules.noAccount) { try await operatorAdmin.setAdmin(email: "nobody@example.com", true) }
    }

    @Test("a suspended account's sessions end and it signs in no more, told so only past its password; reinstated, it signs in")
    func suspension() async throws {
        let ada = try await signUp("ada")
        let before = clock.now()
        let suspended = try await operatorAdmin.setSuspended(email: "ADA@example.com", true)
        #expect(suspended.account == ada.account && suspended.suspendedAt.map { $0 >= before } == true)
        await #expect(throws: AppError.notSignedIn) { try await accounts.account(for: ada.token) }
        await #expect(throws: AuthRules.suspended) { try await accounts.signIn(email: "ada@example.com", password: "password-ada") }
        await #expect(throws: AuthRules.wrongCredentials) { try await accounts.signIn(email: "ada@example.com", password: "password2") }
        #expect(shown.suspended.withLock { $0 } == [ada.account.id], "others see her name marked")
        await #expect(throws: AdminRules.noAccount) { try await operatorAdmin.setSuspended(email: "bob@example.com", true) }
        #expect(try await operatorAdmin.setSuspended(email: "ada@example.com", false).suspendedAt == nil)
        _ = try await accounts.signIn(email: "ada@example.com", password: "password-ada")
        #expect(try await operatorAdmin.auditEntries(limit: 5).map(\.action) == ["users.reinstate", "users.suspend"])
    }

    @Test("accounts are paged by email; a page holds 1 to 1,000")
    func pages() async throws {
        for name in ["carol", "ada", "bob"] { _ = try await signUp(name) }
        let first = try await operatorAdmin.accounts(after: nil, limit: 2)
        #expect(first.map(\.email) == ["ada@example.com", "bob@example.com"])
        #expect(try await operatorAdmin.accounts(after: first.last?.email, limit: 2).map(\.email) == ["carol@example.com"])
        await #expect(throws: AppError.self) { try await operatorAdmin.accounts(after: nil, limit: 0) }
        await #expect(throws: AppError.self) { try await operatorAdmin.auditEntries(limit: 1_001) }
    }

    @Test("a report keeps the message as it was until resolved; dismissing deletes nothing; a reporter spends from a small budget")
    func reports() async throws {
        let ada = try await signUp("ada"), bob = try await signUp("bob")
        messages.kept.withLock { $0[MessageID("m1")] = (ada.account.id, "rude words", false) }
        let spent = Mutex<[UsageBudget.Action]>([])
        let budget = UsageBudget { action, _, _ in
            try spent.withLock { spent in
                guard spent.isEmpty else { throw AppError(.rateLimited, "spent") }
                spent.append(action)
            }
        }
        let asBob = stores.reports(for: .verified(bob.account.id), budget: budget)
        let report = try await asBob.report(MessageID("m1"), in: ConversationID("c1"), reason: "rude")
        #expect(report.text == "rude words")
        #expect(spent.withLock { $0 } == [.conversation], "a report is paid from the budget of new conversations")
        await #expect(throws: AppError.self, "past the budget") { try await asBob.report(MessageID("m1"), in: ConversationID("c1"), reason: "rude") }
        let dismissed = try await operatorAdmin.resolveReport(id: report.id, deletingMessage: false)
        #expect(dismissed.resolution == ReportRules.dismissed && dismissed.text == "")
        #expect(messages.deleted.withLock { $0 }.isEmpty, "dismissing deletes nothing")
        #expect(try await operatorAdmin.reports(includingResolved: false, limit: 5).isEmpty)
        #expect(try await operatorAdmin.reports(includingResolved: true, limit: 5) == [dismissed])
    }

    @Test("codes are shown once and never recorded: the audit record names an invitation by its id, a reset by its account")
    func codesNeverRecorded() async throws {
        let ada = try await signUp("ada")
        let (invite, record) = try await operatorAdmin.createInvite(uses: 3, lifetime: 3_600)
        let reset = try await operatorAdmin.issuePasswordReset(email: "ada@example.com")
        #expect(try await operatorAdmin.invites() == [record])
        try await operatorAdmin.revokeInvite(id: record.id)
        await #expect(throws: AppError(.notFound, "no code \(record.id)")) { try await operatorAdmin.revokeInvite(id: record.id) }
        let entries = try await operatorAdmin.auditEntries(limit: 10)
        #expect(entries.map(\.subject) == ["code \(record.id)", "ada@example.com (\(ada.account.id))", "code \(record.id) (3 uses)"])
        #expect(!entries.contains { $0.subject.contains(invite) || $0.subject.contains(reset) })
        _ = try await accounts.resetPassword(code: reset, newPassword: "password-new")
    }
}

/// Deleting an account over memory's stores: the password is checked before anything goes,
/// the other features' erasure runs before the account goes, and the email is free after.
@Suite("Account deletion", .timeLimit(.minutes(1)))
struct AccountDeletionTests {
    /// What the erasure was asked to remove, in order.
    final class RecordingErasure: AccountErasure {
        let erased = Mutex<[UserID]>([])
        func erase(_ user: UserID) { erased.withLock { $0.append(user) } }
    }

    let erasure = RecordingErasure()
    let accounts: StoredAccountService

    init() {
        accounts = StoredAccountService(
            store: InMemoryAccountStore(profiles: RecordingProvisioning()), hasher: PlainHasher(), digest: MarkedDigest(), erasure: erasure)
    }

    @Test("a wrong password removes nothing; the right one erases, ends every session and frees the email")
    func delete() async throws {
        let ada = try await accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "password1")
        let other = try await accounts.signIn(email: "ada@example.com", password: "password1")
        await #expect(throws: AuthRules.wrongPassword) { try await accounts.deleteAccount(token: ada.token, password: "password2") }
        #expect(erasure.erased.withLock { $0 }.isEmpty)
        try await accounts.deleteAccount(token: ada.token, password: "password1")
        #expect(erasure.erased.withLock { $0 } == [ada.account.id])
        for token in [ada.token, other.token] { await #expect(throws: AppError.notSignedIn) { try await accounts.account(for: token) } }
        await #expect(throws: AuthRules.wrongCredentials) { try await accounts.signIn(email: "ada@example.com", password: "password1") }
        #expect(try await accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "password3").account.id != ada.account.id)
    }
}

/// Messages as `ReportedMessages` gives them, from a table; deletions recorded.
final class FixedMessages: ReportedMessages {
    let kept = Mutex<[MessageID: (sender: UserID, text: String, deleted: Bool)]>([:])
    let deleted = Mutex<[MessageID]>([])

    func message(_ id: MessageID, in conversationID: ConversationID, readBy reader: UserID) throws -> (sender: UserID, text: String, deleted: Bool) {
        guard let message = kept.withLock({ $0[id] }) else { throw AppError(.notFound, "no message") }
        return message
    }

    func deleteForEveryone(_ id: MessageID, in conversationID: ConversationID) { deleted.withLock { $0.append(id) } }
}

/// Whose suspension was shown to others.
final class ShownSuspensions: SuspensionShown {
    let suspended = Mutex<Set<UserID>>([])

    func setSuspended(_ user: UserID, _ suspended: Bool) {
        self.suspended.withLock { if suspended { $0.insert(user) } else { $0.remove(user) } }
    }
}

/// What the service wrote to the process's log.
final class LoggedEntries: Sendable {
    let entries = Mutex<[AuditEntry]>([])
}
