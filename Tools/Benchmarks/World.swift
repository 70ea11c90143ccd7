import AppContainer
import Auth
import Chat
import ConversationList
import Foundation
import Kernel

/// A SQLite database in a scratch folder with users made through the real services.
@MainActor
final class World {
    let folder: URL
    let path: String
    let sessions = InMemorySessionStore()
    let container: AppContainer

    /// Creates a new database file in a scratch folder.
    init() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-bench-\(UUID().uuidString)")
        path = folder.appendingPathComponent("bench.sqlite").path
        container = try await World.container(path: self.path, sessions: sessions)
    }

    static func container(path: String, sessions: any SessionStore) async throws -> AppContainer {
        let settings = try Settings.load(
            commandLine: ["backend": "sqlite", "sqlite.path": path, "auth.bcryptCost": "4"],
            configFile: nil, environment: [:])
        return try await AppContainer(settings: settings, sessions: sessions)
    }

    /// Signs up a user; the world's session is then theirs.
    func user(_ name: String) async throws -> Session {
        _ = try await container.auth.signUp(
            email: "\(name.lowercased())-\(UUID().uuidString.prefix(6))@bench.io",
            displayName: name, password: "bench-password")
        return try sessions.requireSession()
    }

    /// A conversation between two new users, started by the first (signed in) and accepted by
    /// the other.
    func pair() async throws -> (me: Session, other: Session, conversation: ConversationID) {
        let other = try await user("Other")
        let me = try await user("Me")
        let conversation = try await container.conversations.startDirect(with: other.userID).id
        let graph = container.graph
        _ = try await graph.services(for: graph.caller(token: other.token)).conversations.accept(conversation)
        return (me, other, conversation)
    }

    /// Signs `session` in for a `messageai` process started with the returned environment, in
    /// the session file the app itself would read.
    func environment(signedInAs session: Session) async throws -> [String: String] {
        let environment = ["MESSAGEAI_SQLITE_PATH": path, "MESSAGEAI_STATE_DIR": folder.appendingPathComponent("state").path]
        let settings = try Settings.load(commandLine: [:], configFile: nil, environment: environment)
        try FileSessionStore(file: settings.sessionFile).save(session)
        return environment
    }

    /// Every message id of a conversation, oldest first, paged through the service.
    static func messageIDs(in conversation: ConversationID, of container: AppContainer) async throws -> [String] {
        var page = try await container.chat.latestMessages(in: conversation, limit: 500)
        var ids = page.messages.map(\.id.rawValue)
        while page.hasOlder {
            page = try await container.chat.messages(in: conversation, before: page.messages[0].id, limit: 500)
            ids = page.messages.map(\.id.rawValue) + ids
        }
        return ids
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}
