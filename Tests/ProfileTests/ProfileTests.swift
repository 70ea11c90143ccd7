import Kernel
import Profile
import TestSupport
import Testing

/// A profile service whose calls pass a gate, then answer from a fixed profile.
final class GatedProfileService: ProfileService {
    let gate: CallGate
    let stored = Profile(id: UserID("u-ada"), email: "ada@example.com", displayName: "Ada")
    init(_ gate: CallGate) { self.gate = gate }
    func myProfile() async throws -> Profile {
        try await gate.pass()
        return stored
    }
    func profile(matching idOrEmail: String) async throws -> Profile {
        try await gate.pass()
        return stored
    }
    func updateMyProfile(displayName: String?, status: String?) async throws -> Profile {
        try await gate.pass()
        return stored
    }
    func search(_ query: String, limit: Int) async throws -> [Profile] {
        try await gate.pass()
        return [stored]
    }
    func displayNames(of ids: [UserID]) async throws -> [UserID: String] { [:] }
}

@Suite("Profile", .timeLimit(.minutes(1)))
struct ProfileTests {
    let ada = Profile(id: UserID("u-ada"), email: "ada@example.com", displayName: "Ada Lovelace")
    let grace = Profile(id: UserID("u-grace"), email: "grace@example.com", displayName: "Grace Hopper", status: "Debugging")

    var service: StoredProfileService {
        StoredProfileService(store: InMemoryProfileStore(profiles: [ada, grace]), caller: .verified(ada.id))
    }

    /// Grace as others see her unless they asked for her email.
    var graceWithoutEmail: Profile { Profile(id: grace.id, email: nil, displayName: grace.displayName, status: grace.status) }

    @Test("users are found by id or email, case-insensitively; the email shows only to a look-up by it")
    func lookUp() async throws {
        let service = self.service
        #expect(try await service.profile(matching: "u-grace") == graceWithoutEmail)
        #expect(try await service.profile(matching: "GRACE@example.com") == grace)
        #expect(try await service.profile(matching: "u-ada") == ada)
        await #expect(throws: AppError(.notFound, "no user 'nobody@example.com'")) { try await service.profile(matching: "nobody@example.com") }
    }

    @Test("search matches name prefixes or a whole email, never an email's start; 1–50 results")
    func search() async throws {
        let service = self.service
        #expect(try await service.search("g", limit: 10) == [graceWithoutEmail])
        #expect(try await service.search("GRACE@", limit: 10).isEmpty)
        #expect(try await service.search("grace@example.com", limit: 10) == [grace])
        await #expect(throws: AppError.self) { try await service.search("  ", limit: 10) }
        for limit in [0, -1, 51, Int.max, Int.min] {
            await #expect(throws: AppError.self) { try await service.search("g", limit: limit) }
        }
    }

    @Test("editing validates name and status and keeps the other field")
    func edit() async throws {
        let service = self.service
        let renamed = try await service.updateMyProfile(displayName: "Countess", status: nil)
        #expect(renamed.displayName == "Countess" && renamed.status == ada.status)
        await #expect(throws: AppError.self) { try await service.updateMyProfile(displayName: nil, status: String(repeating: "x", count: 141)) }
        #expect(try await service.myProfile().displayName == "Countess")
    }

    @Test("reading profiles needs a session")
    func needsSession() async {
        let service = StoredProfileService(store: InMemoryProfileStore(profiles: [ada]), caller: .signedOut)
        await #expect(throws: AppError.notSignedIn) { try await service.myProfile() }
    }

    @MainActor
    @Test("the profile view model keeps the profile when an edit fails")
    func viewModelEditFailure() async {
        let model = ProfileViewModel(service: service)
        await model.load()
        #expect(model.profile == .loaded(ada))
        await model.save(displayName: "", status: nil)
        #expect(model.update.error?.kind == .invalidInput)
        #expect(model.profile == .loaded(ada))
        await model.save(displayName: nil, status: "Writing notes")
        #expect(model.profile.value?.status == "Writing notes")
    }

    @MainActor
    @Test("search goes loading → failed, and cancellation returns to idle")
    func searchStates() async {
        let failing = UserSearchViewModel(service: GatedProfileService(CallGate(.fail(AppError(.unavailable, "down")))))
        await failing.search("a")
        #expect(failing.results == .failed(AppError(.unavailable, "down")))

        let gate = CallGate(.hang)
        let model = UserSearchViewModel(service: GatedProfileService(gate))
        let task = Task { await model.search("a") }
        await gate.waitForCall()
        #expect(model.results == .loading)
        task.cancel()
        await task.value
        #expect(model.results == .idle)
    }
}
