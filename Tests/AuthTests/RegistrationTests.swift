import Auth
import Foundation
import Kernel
import TestSupport
import Testing

/// The rules of invitation codes over memory's `RegistrationCodeStore`: what a code is, how long
/// and how often it lasts, and one answer for every code that admits nobody.
@Suite("Registration rules", .timeLimit(.minutes(1)))
struct RegistrationTests {
    let clock = TestClock()
    let codes = InMemoryRegistrationCodes()

    func accounts(_ mode: RegistrationMode) -> StoredAccountService {
        StoredAccountService(
            store: InMemoryAccountStore(profiles: RecordingProvisioning()), hasher: PlainHasher(), digest: MarkedDigest(), clock: clock,
            registration: Registration(mode: mode, codes: codes))
    }

    func code(uses: Int, lifetime: TimeInterval = 3_600) async throws -> String {
        try await RegistrationRules.create(uses: uses, lifetime: lifetime, in: codes, digest: MarkedDigest(), now: clock.now()).code
    }

    @Test("lifetimes read as minutes, hours or days; anything else, and counts out of bounds, are refused")
    func lifetimes() async throws {
        #expect(try RegistrationRules.lifetime("30m") == 1_800 && RegistrationRules.lifetime("12h") == 43_200)
        #expect(try RegistrationRules.lifetime("7d") == 604_800)
        for bad in ["", "7", "d", "-1d", "0h", "7w", "1.5d", "99999999999d"] {
            #expect(throws: AppError.self, "\(bad)") { try RegistrationRules.lifetime(bad) }
        }
        await #expect(throws: AppError(.invalidInput, "uses must be from 1 to 10000")) { try await code(uses: 0) }
        await #expect(throws: AppError(.invalidInput, "a code lasts from a minute to 365 days")) { try await code(uses: 1, lifetime: 400 * 86_400) }
    }

    @Test("a code is kept as its digest, admits its uses, then nobody; expired, it admits nobody either")
    func uses() async throws {
        let accounts = accounts(.invite)
        let code = try await code(uses: 2)
        #expect(await codes.codes().map(\.digest) == [MarkedDigest().digest(code)])
        _ = try await accounts.signUp(email: "a@example.com", displayName: "A", password: "password1", invite: code)
        _ = try await accounts.signUp(email: "b@example.com", displayName: "B", password: "password1", invite: code)
        await #expect(throws: RegistrationRules.refused) {
            try await accounts.signUp(email: "c@example.com", displayName: "C", password: "password1", invite: code)
        }
        let soon = try await self.code(uses: 1, lifetime: 60)
        clock.advance(by: 60)
        await #expect(throws: RegistrationRules.refused) {
            try await accounts.signUp(email: "d@example.com", displayName: "D", password: "password1", invite: soon)
        }
        let revoked = await codes.revoke(id: codes.codes()[0].id), unknown = await codes.revoke(id: "nothing")
        #expect(revoked && !unknown)
    }

    @Test("open admits anyone, code or not; a bad sign-up is refused for what it is before any code is looked at")
    func open() async throws {
        _ = try await accounts(.open).signUp(email: "a@example.com", displayName: "A", password: "password1", invite: "anything")
        let code = try await code(uses: 1)
        await #expect(throws: AppError.self) {
            try await accounts(.invite).signUp(email: "not an email", displayName: "B", password: "password1", invite: code)
        }
        #expect(await codes.codes().first?.usesLeft == 1, "a sign-up refused for its input takes no use")
    }
}

/// Password resets without mail over memory's stores: a code works once, for an hour, for its
/// account alone; redeeming it ends every session and signs in.
@Suite("Password resets", .timeLimit(.minutes(1)))
struct PasswordResetTests {
    let clock = TestClock()
    let codes = InMemoryResetCodes()
    let accounts: StoredAccountService

    init() {
        accounts = StoredAccountService(
            store: InMemoryAccountStore(profiles: RecordingProvisioning()), hasher: PlainHasher(), digest: MarkedDigest(), clock: clock,
            resetCodes: codes)
    }

    @Test("a code sets the password once, ends every session, signs in; a newer code replaces it; after an hour it is refused")
    func redeem() async throws {
        let first = try await accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "password1")
        let resets = try #require(accounts.passwordResets)
        let stale = try await resets.issue(for: first.account.id)
        let code = try await resets.issue(for: first.account.id)
        #expect(code.hasPrefix("reset-") && code.count == 38)
        await #expect(throws: PasswordResets.refused) { try await accounts.resetPassword(code: stale, newPassword: "password2") }
        await #expect(throws: AppError.self) { try await accounts.resetPassword(code: code, newPassword: "short") }
        let issued = try await accounts.resetPassword(code: code, newPassword: "password2")
        #expect(issued.account == first.account)
        await #expect(throws: AppError.notSignedIn) { try await accounts.account(for: first.token) }
        #expect(try await accounts.account(for: issued.token) == first.account)
        _ = try await accounts.signIn(email: "ada@example.com", password: "password2")
        await #expect(throws: PasswordResets.refused) { try await accounts.resetPassword(code: code, newPassword: "password3") }
        let late = try await resets.issue(for: first.account.id)
        clock.advance(by: PasswordResets.lifetime)
        await #expect(throws: PasswordResets.refused) { try await accounts.resetPassword(code: late, newPassword: "password3") }
    }

    @Test("a store that keeps no codes refuses a reset")
    func local() async throws {
        let plain = StoredAccountService(
            store: InMemoryAccountStore(profiles: RecordingProvisioning()), hasher: PlainHasher(), digest: MarkedDigest(), clock: clock)
        #expect(plain.passwordResets == nil)
        await #expect(throws: AppError.self) { try await plain.resetPassword(code: "reset-x", newPassword: "password2") }
    }
}
