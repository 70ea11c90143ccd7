import Auth
import Kernel
import Synchronization
import Testing

@testable import ServiceGraph

/// The graph's cache of verified session tokens: a token forgotten here (a sign-out, a password
/// change) is never trusted again from an answer read before it was forgotten.
@Suite("Session verification cache", .timeLimit(.minutes(1)))
struct SessionVerifierTests {
    @Test("an answer read before a sign-out is not cached after it")
    func noStaleRefill() async throws {
        let accounts = HeldAccounts()
        let verifier = SessionVerifier(accounts: accounts, bots: nil, cacheTime: .seconds(60))
        let reading = Task { try await verifier.userID(for: "token") }
        await accounts.called.first { _ in true }
        // The sign-out lands while that read is on its way.
        accounts.revoked.withLock { $0 = true }
        verifier.forget(token: "token")
        accounts.answer.yield()
        #expect(try await reading.value == UserID("u-ada"), "the read began before the sign-out")
        await #expect(throws: AppError.notSignedIn) { try await verifier.userID(for: "token") }
    }

    /// Accounts whose first `account(for:)` waits to be let through; after `revoked`, the token is refused.
    private final class HeldAccounts: AccountService, Sendable {
        let revoked = Mutex(false)
        let (called, calledNow) = AsyncStream<Void>.makeStream()
        let (answers, answer) = AsyncStream<Void>.makeStream()

        func account(for token: String) async throws -> Account {
            // Checked before telling the test of the call, so that the test's revocation can
            // only land after this read has begun.
            if revoked.withLock({ $0 }) { throw AppError.notSignedIn }
            calledNow.yield()
            _ = await answers.first { _ in true }
            return Account(id: UserID("u-ada"), email: "ada@example.com")
        }

        func signUp(email: String, displayName: String, password: String, invite: String?) async throws -> IssuedSession {
            throw AppError(.internal, "unused")
        }
        func signIn(email: String, password: String) async throws -> IssuedSession { throw AppError(.internal, "unused") }
        func revoke(token: String) async throws {}
        func changePassword(token: String, current: String, new: String) async throws {}
        func resetPassword(code: String, newPassword: String) async throws -> IssuedSession { throw AppError(.internal, "unused") }
        func deleteAccount(token: String, password: String) async throws {}
    }
}
