import Auth
import Kernel
import Testing

@Suite("InMemoryAuthService")
struct InMemoryAuthServiceTests {
    let sessions = InMemorySessionStore()
    let provisioning = RecordingProvisioning()
    var service: InMemoryAuthService {
        InMemoryAuthService(hasher: PlainHasher(), sessions: sessions, profiles: provisioning)
    }

    @Test("sign-up normalises the email, creates the profile and signs in")
    func signUp() async throws {
        let service = self.service
        let account = try await service.signUp(email: " Ada@Example.com", displayName: " Ada ", password: "password1")
        #expect(account.email == "ada@example.com")
        #expect(sessions.load()?.userID == account.id)
        #expect(provisioning.names == ["Ada"])
        #expect(try await service.currentAccount() == account)
    }

    @Test("a taken email is a conflict, whatever its case")
    func duplicateEmail() async throws {
        let service = self.service
        _ = try await service.signUp(email: "ada@example.com", displayName: "Ada", password: "password1")
        await #expect(throws: AppError.self) {
            try await service.signUp(email: "ADA@example.com", displayName: "Other", password: "password2")
        }
    }

    @Test("bad input is refused before anything is stored")
    func badInput() async {
        let service = self.service
        for (email, name, password) in [("nope", "Ada", "password1"), ("a@b.io", "", "password1"), ("a@b.io", "Ada", "short")] {
            await #expect(throws: AppError.self) { try await service.signUp(email: email, displayName: name, password: password) }
        }
        #expect(provisioning.names.isEmpty)
    }

    @Test("sign-in checks the password; sign-out ends the session")
    func signInAndOut() async throws {
        let service = self.service
        let account = try await service.signUp(email: "ada@example.com", displayName: "Ada", password: "password1")
        try await service.signOut()
        #expect(try await service.currentAccount() == nil)
        await #expect(throws: AppError(.invalidCredentials, "wrong email or password")) {
            try await service.signIn(email: "ada@example.com", password: "wrong-password")
        }
        #expect(try await service.signIn(email: "ADA@example.com", password: "password1") == account)
    }

    @Test("changing the password needs the current one")
    func changePassword() async throws {
        let service = self.service
        _ = try await service.signUp(email: "ada@example.com", displayName: "Ada", password: "password1")
        await #expect(throws: AppError.self) { try await service.changePassword(current: "nope-nope", new: "password2") }
        try await service.changePassword(current: "password1", new: "password2")
        try await service.signOut()
        _ = try await service.signIn(email: "ada@example.com", password: "password2")
    }
}
