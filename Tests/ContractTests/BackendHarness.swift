import AppContainer
import Auth
import Chat
import ConversationList
import Foundation
import Kernel
import Profile

/// One backend under test: a container over it, and users who take turns acting. Each act runs
/// with that user's session in the container's session store.
@MainActor
final class BackendHarness {
    struct User {
        let id: UserID
        let email: String
        let session: Session
    }

    let container: AppContainer
    private let sessions = InMemorySessionStore()

    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-contract-\(UUID().uuidString)")

    init(_ backend: Backend) async throws {
        let settings = try await SettingsLoader.load(
            commandLine: ["backend": backend.rawValue, "auth.bcryptCost": "4", "memory.peerDelayMs": "600000",
                          "sqlite.path": folder.appendingPathComponent("contract.sqlite").path],
            configFile: nil, environment: [:])
        container = try AppContainer(settings: settings, sessions: sessions)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    var auth: any AuthService { container.auth }
    var profiles: any ProfileService { container.profiles }
    var conversations: any ConversationListService { container.conversations }
    var chat: any ChatService { container.chat }

    /// Signs up a new user with a unique email and password `password-<name>`.
    func signUp(_ name: String) async throws -> User {
        let email = "\(name.lowercased())-\(UUID().uuidString.prefix(8))@example.com"
        let account = try await auth.signUp(email: email, displayName: name, password: "password-\(name)")
        return User(id: account.id, email: account.email, session: try sessions.requireSession())
    }

    /// Runs `body` as `user`.
    func act<T>(as user: User, _ body: () async throws -> T) async throws -> T {
        sessions.save(user.session)
        return try await body()
    }
}
