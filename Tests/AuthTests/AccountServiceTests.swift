import Auth
import Kernel
import TestSupport
import Testing

@Suite("StoredAccountService over InMemoryAccountStore, and SessionAuthService", .timeLimit(.minutes(1)))
struct AccountServiceTests {
    let sessions = InMemorySessionStore()
    let provisioning = RecordingProvisioning()
    let clock = TestClock()
    let accounts: StoredAccountService
    let auth: SessionAuthService

    init() {
        accounts = StoredAccountService(
            store: InMemoryAccountStore(profiles: provisioning), hasher: PlainHasher(), digest: MarkedDigest(), clock: clock, idleLimit: 3_600)
        auth = SessionAuthService(accounts: accounts, store: sessions)
    }

    @Test("sign-up normalises the email, creates the profile and keeps a session on the device")
    func signUp() async throws {
        let account = try await auth.signUp(email: " Ada@Example.com", displayName: " Ada ", password: "password1")
        #expect(account.email == "ada@example.com")
        #expect(sessions.load()?.userID == account.id)
        #expect(provisioning.names == ["Ada"])
        #expect(try await auth.currentAccount() == account)
    }

    @Test("the audit record keeps every entry and gives the newest first, as many as asked")
    func audit() async throws {
        let audit = InMemoryAuditStore()
        for action in ["invites.create", "users.suspend", "users.reinstate"] {
            try await audit.record(AuditEntry(at: clock.now(), actor: "operator:ada@host", action: action, subject: "someone"))
        }
        #expect(await audit.entries(limit: 2).map(\.action) == ["users.reinstate", "users.suspend"])
        #expect(await audit.entries(limit: 10).count == 3)
    }

    @Test("session tokens are 256 random bits in hex, different every time")
    func tokens() async throws {
        let first = try await accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "password1")
        let second = try await accounts.signIn(email: "ada@example.com", password: "password1")
        for token in [first.token, second.token] {
            #expect(token.count == 64 && token.allSatisfy { $0.isHexDigit })
        }
        #expect(first.token != second.token)
        #expect(Set((0..<1_000).map { _ in SessionToken.generate() }).count == 1_000)
    }

    @Test("a forged or unknown token is not signed in")
    func forgedToken() async throws {
        let real = try await accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "password1")
        for forged in ["", "u-ada", String(real.token.dropLast()) + "0", real.account.id.rawValue, "digest:" + real.token] where forged != real.token
        {
            await #expect(throws: AppError.notSignedIn) { try await accounts.account(for: forged) }
        }
        sessions.save(Session(userID: real.account.id, email: real.account.email, token: "made-up"))
        #expect(try await auth.currentAccount() == nil)
    }

    @Test("a taken email is a conflict, whatever its case; a failed profile leaves no account")
    func duplicateEmailAndAtomicSignUp() async throws {
        _ = try await auth.signUp(email: "ada@example.com", displayName: "Ada", password: "password1")
        await #expect(throws: AppError(.conflict, "an account with email ada@example.com already exists")) {
            try await auth.signUp(email: "ADA@example.com", displayName: "Other", password: "password2")
        }
        await #expect(throws: AppError.self) {
            try await auth.signUp(email: "eve@example.com", displayName: RecordingProvisioning.refusedName, password: "password3")
        }
        await #expect(throws: AuthRules.wrongCredentials) { try await accounts.signIn(email: "eve@example.com", password: "password3") }
        _ = try await auth.signUp(email: "eve@example.com", displayName: "Eve", password: "password3")
    }

    @Test("an unknown email, a NUL or an over-long password cost a password check all the same, and fail alike")
    func uniformSignInCost() async throws {
        let hasher = CountingHasher()
        let accounts = StoredAccountService(store: InMemoryAccountStore(profiles: provisioning), hasher: hasher, digest: MarkedDigest())
        _ = try await accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "password1")
        let attempts = [
            ("nobody@example.com", "password1"), ("ada@example.com", "wrong-password"), ("ada@example.com", "\0\0\0\0\0\0\0\0"),
            ("ada@example.com", "password1" + String(repeating: "x", count: 80)), ("not an email", "password1"),
        ]
        for (email, password) in attempts {
            await #expect(throws: AuthRules.wrongCredentials) { try await accounts.signIn(email: email, password: password) }
        }
        #expect(hasher.checks == attempts.count)
    }

    @Test("bad input is refused before anything is stored")
    func badInput() async {
        for (email, name, password) in [("nope", "Ada", "password1"), ("a@b.io", "", "password1"), ("a@b.io", "Ada", "short")] {
            await #expect(throws: AppError.self) { try await auth.signUp(email: email, displayName: name, password: password) }
        }
        #expect(provisioning.names.isEmpty)
    }

    @Test("sign-in checks the password; sign-out revokes the token")
    func signInAndOut() async throws {
        let account = try await auth.signUp(email: "ada@example.com", displayName: "Ada", password: "password1")
        let token = try #require(sessions.load()?.token)
        try await auth.signOut()
        #expect(sessions.load() == nil)
        await #expect(throws: AppError.notSignedIn) { try await accounts.account(for: token) }
        await #expect(throws: AppError(.invalidCredentials, "wrong email or password")) {
            try await auth.signIn(email: "ada@example.com", password: "wrong-password")
        }
        #expect(try await auth.signIn(email: "ADA@example.com", password: "password1") == account)
    }

    @Test("changing the password needs the current one and ends every other session")
    func changePassword() async throws {
        let first = try await accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "password1")
        let second = try await accounts.signIn(email: "ada@example.com", password: "password1")
        await #expect(throws: AuthRules.wrongCurrentPassword) {
            try await accounts.changePassword(token: second.token, current: "nope-nope", new: "password2")
        }
        try await accounts.changePassword(token: second.token, current: "password1", new: "password2")
        await #expect(throws: AppError.notSignedIn) { try await accounts.account(for: first.token) }
        #expect(try await accounts.account(for: second.token) == second.account)
        _ = try await accounts.signIn(email: "ada@example.com", password: "password2")
    }

    @Test("a session ends after the idle limit; each use restarts it")
    func idleExpiry() async throws {
        let issued = try await accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "password1")
        clock.advance(by: 3_000)
        #expect(try await accounts.account(for: issued.token) == issued.account)
        clock.advance(by: 3_000)
        #expect(try await accounts.account(for: issued.token) == issued.account)
        clock.advance(by: 3_601)
        await #expect(throws: AppError.notSignedIn) { try await accounts.account(for: issued.token) }
    }

    @Test("the in-memory session store keeps and clears a session")
    func sessionStore() throws {
        let store = InMemorySessionStore()
        #expect(throws: AppError.notSignedIn) { try store.requireSession() }
        let session = Session(userID: UserID("u"), email: "u@x.io", token: "t")
        store.save(session)
        #expect(try store.requireSession() == session)
        store.save(nil)
        #expect(store.load() == nil)
    }
}
