import Auth
import Kernel
import Synchronization
import TestSupport

/// A reversible stand-in for bcrypt, so tests run fast.
struct PlainHasher: PasswordHasher {
    func hash(_ password: String) async -> String { "hashed:" + password }
    func verify(_ password: String, against hash: String?) async -> Bool { hash == "hashed:" + password }
}

/// Counts password checks, with or without a stored hash.
final class CountingHasher: PasswordHasher {
    private let count = Mutex(0)
    var checks: Int { count.withLock { $0 } }
    func hash(_ password: String) async -> String { "hashed:" + password }
    func verify(_ password: String, against hash: String?) async -> Bool {
        count.withLock { $0 += 1 }
        return hash == "hashed:" + password
    }
}

/// A readable stand-in for SHA-256: tests can see what the store keeps.
struct MarkedDigest: TokenDigest {
    func digest(_ token: String) -> String { "digest:" + token }
}

/// Records the profiles sign-up asks for.
final class RecordingProvisioning: ProfileProvisioning {
    private let created = Mutex<[String]>([])
    var names: [String] { created.withLock { $0 } }
    func createProfile(for account: Account, displayName: String) async throws {
        if displayName == Self.refusedName { throw AppError(.conflict, "refused on purpose") }
        created.withLock { $0.append(displayName) }
    }

    func createProfile(of bot: Bot) async throws { created.withLock { $0.append(bot.name) } }

    /// A display name whose profile creation fails, to show sign-up is all or nothing.
    static let refusedName = "Refused"
}

/// An auth service whose sign-in and sign-up answer through a gate.
final class ScriptedAuthService: AuthService {
    let gate: CallGate
    let account: Account

    init(_ gate: CallGate, account: Account = Account(id: UserID("u-ada"), email: "ada@example.com")) {
        self.gate = gate
        self.account = account
    }

    func signIn(email: String, password: String) async throws -> Account {
        try await gate.pass()
        return account
    }

    func signUp(email: String, displayName: String, password: String, invite: String?) async throws -> Account {
        try await signIn(email: email, password: password)
    }

    func signOut() async throws {}
    func currentAccount() async throws -> Account? { nil }
    func changePassword(current: String, new: String) async throws {}

    func resetPassword(code: String, newPassword: String) async throws -> Account { throw AppError(.internal, "unused") }
    func deleteAccount(password: String) async throws {}
}
