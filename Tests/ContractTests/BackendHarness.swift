import Auth
import Chat
import ConversationList
import Files
import Foundation
import Kernel
import Profile
import ServiceGraph
import TestSupport
import Testing

/// A backend under test: one of the graph's, or the remote one served by a server on PostgreSQL.
enum ContractBackend: String, Sendable, CustomTestStringConvertible {
    case memory, sqlite, remote, postgres
    case remoteOnPostgres = "remote on postgres"

    /// The graph's backend it opens.
    var graphBackend: Backend {
        switch self {
        case .memory: .memory
        case .sqlite: .sqlite
        case .remote, .remoteOnPostgres: .remote
        case .postgres: .postgres
        }
    }

    var testDescription: String { rawValue }
}

/// One backend under test, the way a server will use it: a service graph, and users who each
/// get the services built for them from their session token.
final class BackendHarness: Sendable {
    struct User: Sendable {
        let id: UserID
        let email: String
        let token: String
    }

    let graph: ServiceGraph
    let clock: TestClock
    let folder: URL
    /// The server of the remote backend: a real `messageai-server` process over a SQLite file in
    /// the scratch folder.
    let server: ServerProcess?
    /// The PostgreSQL database of the postgres backends.
    let postgresURL: String?

    /// Opens `backend` over a new scratch folder (and a new database of the tests' PostgreSQL
    /// cluster), or over the database (or server) of `sharing` (a second process on the same
    /// file or server); the graph's services spend from `budget` (a server keeps its own).
    init(
        _ backend: ContractBackend, sharing other: BackendHarness? = nil, verificationCacheTime: Duration = .seconds(2),
        idleLimit: TimeInterval = AuthRules.defaultIdleLimit, budget: UsageBudget = .unlimited, fileLimits: FileLimits = FileLimits(),
        registration: RegistrationMode = .open, invitesByEveryone: Bool = false
    ) async throws {
        folder = other?.folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("messageai-contract-\(UUID().uuidString)")
        clock = other?.clock ?? TestClock()
        postgresURL =
            if let url = other?.postgresURL { url } else if [.postgres, .remoteOnPostgres].contains(backend) {
                try await PostgresCluster.shared().database()
            } else {
                nil
            }
        let database = folder.appendingPathComponent("contract.sqlite").path
        if backend.graphBackend == .remote, other?.server == nil {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // The suite signs up many people from one address (100 throw-away accounts, say).
            let files =
                ["--files-max-bytes", String(fileLimits.maxBytes)] + (fileLimits.quota.map { ["--files-quota-megabytes", String($0 >> 20)] } ?? [])
            server = try await ServerProcess(
                databasePath: database,
                arguments: ["--sign-up-burst", "100000", "--registration-mode", registration.rawValue] + files
                    + ["--invites-by", invitesByEveryone ? "everyone" : "admins"]
                    + (postgresURL.map { ["--postgres-url", $0] } ?? []))
        } else {
            server = other?.server
        }
        var options = GraphOptions(
            backend: backend.graphBackend, sqlitePath: database, bcryptCost: 4, sessionIdleLimit: idleLimit, peerDelay: .seconds(600),
            verificationCacheTime: verificationCacheTime, clock: clock, remoteURL: server?.url, budget: budget, postgresURL: postgresURL,
            fileLimits: fileLimits, registration: registration)
        options.invitesByEveryone = invitesByEveryone
        graph = try await ServiceGraph.open(options)
    }

    /// The path of the SQLite file, or the URL of the PostgreSQL database, the backend keeps its
    /// store in (the server's, on the remote backends): what an operator names to `messageai-server admin`.
    var store: String { postgresURL ?? folder.appendingPathComponent("contract.sqlite").path }

    /// Runs `sql` with `psql` in the PostgreSQL database of the postgres backends, as an operator
    /// would, and returns what it prints.
    func psql(_ sql: String) async throws -> String {
        guard let postgresURL else { throw AppError(.usage, "the \(graph.options.backend) backend has no PostgreSQL database") }
        return try await PostgresCluster.shared().psql(sql, onDatabaseAt: postgresURL)
    }

    /// The bytes of every file of the SQLite store (the server's, on the remote backend): the
    /// database, its log, and the files shared in it (beside it, in `contract.sqlite.files/`), for
    /// a test to look for what must not be there.
    func storeBytes() throws -> [Data] {
        let beside = folder.appendingPathComponent("contract.sqlite.files")
        let database = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter { file in
            file.lastPathComponent.hasPrefix("contract.sqlite") && file.lastPathComponent != beside.lastPathComponent
        }
        let shared = (try? FileManager.default.contentsOfDirectory(at: beside, includingPropertiesForKeys: nil)) ?? []
        return try (database + shared).map { try Data(contentsOf: $0) }
    }

    /// Stops the server, if any, and removes the scratch folder.
    func remove() {
        graph.close()
        server?.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    var accounts: any AccountService { graph.accounts }

    /// Signs up a new user with a unique email and password `password-<name>`, with `invite` where the server admits by invitation.
    func signUp(_ name: String, invite: String? = nil) async throws -> User {
        let email = "\(name.lowercased().filter(\.isLetter))-\(UUID().uuidString.prefix(8))@example.com"
        let issued = try await accounts.signUp(email: email, displayName: name, password: "password-\(name)", invite: invite)
        return User(id: issued.account.id, email: issued.account.email, token: issued.token)
    }

    /// The services of `user`, built from their token.
    func services(for user: User) -> ServiceSet { graph.services(for: graph.caller(token: user.token)) }

    /// The one-to-one of `starter` and `other`, started by `starter` and accepted by `other`
    /// (by starting it too): both are members. As `starter` sees it.
    func direct(_ starter: User, _ other: User) async throws -> ConversationSummary {
        let direct = try await services(for: starter).conversations.startDirect(with: other.id)
        _ = try await services(for: other).conversations.startDirect(with: starter.id)
        return direct
    }

    /// A group started by `creator` with `others`, each of whom accepts: all are members. As
    /// `creator` sees it.
    func group(_ title: String, by creator: User, with others: [User]) async throws -> ConversationSummary {
        let group = try await services(for: creator).conversations.createGroup(title: title, memberIDs: others.map(\.id))
        for other in others where !group.memberIDs.contains(other.id) { _ = try await services(for: other).conversations.accept(group.id) }
        return group
    }
}
