import Auth
import Foundation
import Kernel
import ServiceGraph
import TestSupport
import Testing

/// Who may sign up on a server (`registration.mode`), on every store a server keeps codes in,
/// directly and through a real `messageai-server`: codes made by the operator's command, taken
/// exactly as often as they allow however many sign-ups race, and one refusal for every bad code.
@Suite("Registration contract", .serialized, .timeLimit(.minutes(2)))
struct RegistrationContractTests {
    /// `messageai-server admin invites create` on `harness`'s store, as an operator runs it: the
    /// code it prints.
    static func code(uses: Int, expires: String = "7d", on harness: BackendHarness) async throws -> String {
        try await admin(["invites", "create", "--uses", String(uses), "--expires", expires], on: harness)
    }

    /// `messageai-server admin ARGUMENTS --store STORE` on `harness`'s store, as an operator runs
    /// it: what it prints, trimmed (it must succeed).
    static func admin(_ arguments: [String], on harness: BackendHarness) async throws -> String {
        let process = Process()
        process.executableURL = LocalMachine.messageai.deletingLastPathComponent().appendingPathComponent("messageai-server")
        process.arguments = ["admin"] + arguments + ["--store", harness.store]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let printed = String(decoding: try output.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
        #expect(await process.ended() == 0)
        return printed.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What a sign-up of `name` with `invite` ends in: nil for an account, else the error.
    static func attempt(_ accounts: any AccountService, _ name: String, invite: String?) async -> AppError? {
        do {
            _ = try await accounts.signUp(
                email: "\(name)-\(UUID().uuidString.prefix(6))@example.com", displayName: name, password: "password-\(name)", invite: invite)
            return nil
        } catch {
            return AppError(error)
        }
    }

    @Test(
        "invite: no code, a wrong, used-up or expired one are refused alike; a code of 5 admits exactly 5 of 50 at once",
        arguments: [ContractBackend.sqlite, .remote, .postgres, .remoteOnPostgres])
    func invite(backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend, registration: .invite)
        defer { harness.remove() }
        // A second instance on the same store: another graph (and, remote, the same server).
        let other = try await BackendHarness(backend, sharing: harness, registration: .invite)
        let code = try await Self.code(uses: 5, on: harness)
        #expect(code.hasPrefix("mai-") && code.count == 36, "128 random bits, in hex: \(code)")
        #expect(await Self.attempt(harness.accounts, "nocode", invite: nil) == RegistrationRules.inviteOnly)
        let wrong = await Self.attempt(harness.accounts, "wrong", invite: "mai-" + String(repeating: "0", count: 32))
        #expect(wrong == RegistrationRules.refused)
        let results = await withTaskGroup(of: AppError?.self) { group in
            for index in 0..<50 {
                group.addTask { await Self.attempt((index % 2 == 0 ? harness : other).accounts, "racer\(index)", invite: code) }
            }
            return await group.reduce(into: [AppError?]()) { $0.append($1) }
        }
        #expect(results.filter { $0 == nil }.count == 5, "\(results.compactMap { $0?.message })")
        #expect(results.compactMap { $0 }.allSatisfy { $0 == RegistrationRules.refused })
        #expect(await Self.attempt(harness.accounts, "late", invite: code) == RegistrationRules.refused, "used up: as a wrong code")
        let soon = try await Self.code(uses: 1, expires: "1m", on: harness)
        harness.clock.advance(by: 61)
        if backend.graphBackend != .remote {
            #expect(await Self.attempt(harness.accounts, "expired", invite: soon) == RegistrationRules.refused, "expired: as a wrong code")
        }
        other.graph.close()
    }

    @Test("a sign-up refused for its email gives its code's use back; the store keeps no code, only digests")
    func givenBack() async throws {
        let harness = try await BackendHarness(.sqlite, registration: .invite)
        defer { harness.remove() }
        let (first, second) = (try await Self.code(uses: 1, on: harness), try await Self.code(uses: 1, on: harness))
        let signUp = { (email: String, invite: String) in
            try await harness.accounts.signUp(email: email, displayName: "Ada", password: "password-ada", invite: invite)
        }
        _ = try await signUp("ada@example.com", first)
        await #expect(throws: AuthRules.emailTaken("ada@example.com")) { try await signUp("ada@example.com", second) }
        _ = try await signUp("bob@example.com", second)
        let bytes = try harness.storeBytes()
        for code in [first, second] { #expect(!bytes.contains { $0.range(of: Data(code.utf8)) != nil }, "\(code) is in the store") }
    }

    @Test("closed: nobody signs up, with a code or without")
    func closed() async throws {
        let harness = try await BackendHarness(.sqlite, registration: .closed)
        defer { harness.remove() }
        let code = try await Self.code(uses: 1, on: harness)
        #expect(await Self.attempt(harness.accounts, "a", invite: nil) == RegistrationRules.closed)
        #expect(await Self.attempt(harness.accounts, "b", invite: code) == RegistrationRules.closed)
    }
}

/// Password resets on every store a server keeps them in, the code issued by the operator's
/// command: it works once, even raced through two instances, and ends the account's sessions.
@Suite("Password reset contract", .serialized, .timeLimit(.minutes(2)))
struct PasswordResetContractTests {
    /// `messageai-server admin users reset-password EMAIL` on `harness`'s store: the code it prints.
    static func code(for email: String, on harness: BackendHarness) async throws -> String {
        try await RegistrationContractTests.admin(["users", "reset-password", email], on: harness)
    }

    @Test(
        "a reset code raced through two instances sets the password once; every older session ends",
        arguments: [ContractBackend.sqlite, .remote, .postgres, .remoteOnPostgres])
    func reset(backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let other = try await BackendHarness(backend, sharing: harness)
        defer { other.graph.close() }
        let ada = try await harness.signUp("ada")
        let code = try await Self.code(for: ada.email, on: harness)
        let outcomes = await withTaskGroup(of: IssuedSession?.self) { group in
            for index in 0..<10 {
                group.addTask {
                    try? await (index % 2 == 0 ? harness : other).accounts.resetPassword(code: code, newPassword: "new-password-\(index)")
                }
            }
            return await group.reduce(into: [IssuedSession?]()) { $0.append($1) }
        }
        let won = outcomes.compactMap { $0 }
        try #require(won.count == 1, "\(won.count) resets took")
        await #expect(throws: AppError.notSignedIn) { try await harness.accounts.account(for: ada.token) }
        #expect(try await other.accounts.account(for: won[0].token).id == ada.id)
        await #expect(throws: PasswordResets.refused) { try await harness.accounts.resetPassword(code: code, newPassword: "another-one") }
    }
}
