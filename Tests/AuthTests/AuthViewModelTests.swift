import Auth
import Kernel
import TestSupport
import Testing

@MainActor
@Suite("Auth view models", .timeLimit(.minutes(1)))
struct AuthViewModelTests {
    let ada = Account(id: UserID("u-ada"), email: "ada@example.com")

    @Test("sign-in goes idle → loading → loaded")
    func signInSuccess() async {
        let service = ScriptedAuthService(CallGate(.answer), account: ada)
        let model = SignInViewModel(auth: service)
        #expect(model.state == .idle)
        await model.signIn(email: "ada@example.com", password: "password1")
        #expect(model.state == .loaded(ada))
    }

    @Test("a failed sign-in keeps the service's error")
    func signInFailure() async {
        let error = AppError(.invalidCredentials, "wrong email or password")
        let model = SignInViewModel(auth: ScriptedAuthService(CallGate(.fail(error))))
        await model.signUp(email: "ada@example.com", displayName: "Ada", password: "password1")
        #expect(model.state == .failed(error))
    }

    @Test("a cancelled sign-in is not an error: back to idle")
    func signInCancelled() async {
        let gate = CallGate(.hang)
        let model = SignInViewModel(auth: ScriptedAuthService(gate))
        let task = Task { await model.signIn(email: "ada@example.com", password: "password1") }
        await gate.waitForCall()
        #expect(model.state == .loading)
        task.cancel()
        await task.value
        #expect(model.state == .idle)
    }

    @Test("the session view model loads, signs out and reports a password change")
    func session() async throws {
        let sessions = InMemorySessionStore()
        let accounts = StoredAccountService(
            store: InMemoryAccountStore(profiles: RecordingProvisioning()), hasher: PlainHasher(), digest: MarkedDigest())
        let service = SessionAuthService(accounts: accounts, store: sessions)
        let account = try await service.signUp(email: "ada@example.com", displayName: "Ada", password: "password1")
        let model = SessionViewModel(auth: service)
        await model.load()
        #expect(model.account == .loaded(account))
        await model.changePassword(current: "wrong-one", new: "password2")
        #expect(model.lastAction.error?.kind == .invalidCredentials)
        await model.changePassword(current: "password1", new: "password2")
        #expect(model.lastAction == .loaded(.passwordChanged))
        await model.signOut()
        #expect(model.account == .loaded(nil))
        #expect(sessions.load() == nil)
    }
}
