import Auth
import AuthLive
import AuthRemote
import Chat
import Files
import Foundation
import Kernel

/// What a process shares, opened once: the backend's storage, change feed, caches and password
/// hasher; and, from them, cheap service sets for one verified caller each. Has no UI actor:
/// the CLI and the REPL build `AppContainer` on top of it, a server builds one set per connection.
public final class ServiceGraph: Sendable {
    /// What it was opened with.
    public let options: GraphOptions
    private let backend: any GraphBackend
    private let verifier: SessionVerifier

    /// Opens the configured backend.
    /// - Throws: `AppError(.unavailable)` when it cannot be opened (the database file is a
    ///   folder, not SQLite, corrupt…); `AppError(.usage)` for a remote backend without a usable
    ///   URL, or for the postgres backend, which opens with `open(_:)`.
    public convenience init(_ options: GraphOptions) throws {
        let backend: any GraphBackend =
            switch options.backend {
            case .memory: MemoryBackend(options)
            case .sqlite: try SQLiteBackend(options)
            case .remote: try RemoteBackend(options)
            case .postgres: throw AppError(.usage, "the postgres backend connects before it serves: open it with ServiceGraph.open")
            }
        self.init(options, backend: backend)
    }

    /// Opens the configured backend, connecting to its database first where it has one
    /// (postgres: the database reached and migrated).
    /// - Throws: as `init(_:)` does; `.unavailable` when the PostgreSQL database cannot be reached.
    public static func open(_ options: GraphOptions) async throws -> ServiceGraph {
        guard options.backend == .postgres else { return try ServiceGraph(options) }
        return ServiceGraph(options, backend: try await PostgresBackend.open(options))
    }

    private init(_ options: GraphOptions, backend: any GraphBackend) {
        self.options = options
        self.backend = backend
        verifier = SessionVerifier(accounts: backend.accounts, bots: backend.botCredentials, cacheTime: options.verificationCacheTime)
        backend.watchSessionEnds { [verifier] digest in verifier.forget(digest: digest) }
    }

    /// Accounts and sessions: sign-up, sign-in, token look-up and revocation.
    public var accounts: any AccountService { VerifiedAccounts(accounts: backend.accounts, verifier: verifier) }

    /// Looking after the server for `caller` (an admin; anyone else is refused at every call):
    /// over the store where this process reaches it, else through the server's admin API.
    public func admin(for caller: Caller) -> any AdminService {
        switch backend.administration {
        case .stores(let stores): VerifiedAdmin(admin: stores.service(acting: .account(caller)), verifier: verifier)
        case .server(let connection): RemoteAdminService(connection: connection, caller: caller)
        }
    }

    /// Reporting messages to the server's admins, for `caller`: over the store where this
    /// process reaches it (from the caller's budget), else through the server.
    public func reports(for caller: Caller) -> any ReportService {
        switch backend.administration {
        case .stores(let stores): stores.reports(for: caller, budget: options.budget)
        case .server(let connection): RemoteReportService(connection: connection, caller: caller)
        }
    }

    /// The bots, API tokens and webhooks `caller` keeps: over the store where this process reaches
    /// it (each new one from the caller's budget), else through the server.
    public func bots(for caller: Caller) -> any BotService {
        backend.bots(for: caller, budget: options.budget) { [verifier] in verifier.forgetBotTokens() }
    }

    /// Posts `message` through hook `hook` with its secret, as the hook's bot into its
    /// conversation (`BotCredentials.poster`, checked and trusted as a token is), from the hook's
    /// own budget (before its text is read) and then the bot's, as a send of the bot's is checked.
    /// A server serves it.
    /// - Throws: `BotRules.noHook` for an unknown hook or a wrong secret alike; `.invalidInput`
    ///   for a post with no text; `.rateLimited` past the hook's budget; as a send does.
    public func post(_ message: SlackMessage, toHook hook: String, secret: String) async throws {
        // Checked and trusted as a token is: a burst of posts costs one look-up, a deleted hook is
        // refused here at once and on other instances within the cache time.
        let (user, grant) = try await verifier.poster(hook: hook, secret: secret)
        guard let conversationID = grant.soleConversation else { throw BotRules.noHook }
        try options.budget.spend(.message, by: UserID(hook))
        let text = try message.plainText()
        let caller = Caller.granted(token: nil) { (user, grant) }
        _ = try await services(for: caller).chat.send(id: .random(), text: text, to: conversationID, replyTo: nil, attachments: [])
    }

    /// Looking after the server as its operator on the store (`messageai-server admin`), named
    /// `name` in the audit record: allowed everything, the way the first admin is made.
    /// - Throws: `.usage` on the remote backend, which reaches no store.
    public func operatorAdmin(named name: String) throws -> any AdminService {
        guard case .stores(let stores) = backend.administration else {
            throw AppError(.usage, "an operator works on the server's store; through a server, sign in as an admin (messageai admin)")
        }
        return VerifiedAdmin(admin: stores.service(acting: .operator(name)), verifier: verifier)
    }

    /// The caller a session token stands for (`nil`: nobody). The token is checked on first use
    /// and again whenever the verification cache time has passed.
    public func caller(token: String?) -> Caller {
        guard let token else { return .signedOut }
        let verifier = verifier
        return Caller.granted(token: token) { try await verifier.principal(for: token) }
    }

    /// The sessions ended from now on: through this graph (sign-out, password change), and on
    /// the postgres backend through any instance or program, within about a second.
    public func sessionEnds() -> AsyncStream<SessionEnd> { verifier.ends.subscribe() }

    /// The services of `caller`.
    public func services(for caller: Caller) -> ServiceSet { backend.services(for: caller) }

    /// The process's feed of new events on the memory and SQLite backends (`nil` on the remote
    /// one, whose events come from the server): a server pushes its sockets' events from it.
    public var eventFeed: (any EventFeed)? { backend.eventFeed }

    /// The people `user` is apart from (`ChatRules.apart`: one of them blocked the other), with
    /// its owner's for a bot (`grant`), whose reactions they do not see; none on the remote
    /// backend, whose server decides.
    public func peopleApart(from user: UserID, under grant: Grant = .person) async throws -> Set<UserID> {
        guard let membership = backend.membership else { return [] }
        return try await membership.people(apartFrom: user, under: grant)
    }

    /// The process's hub of typing notices on the memory, SQLite and PostgreSQL backends (`nil`
    /// on the remote one): what a server's events sockets carry typing from.
    public var typingHub: TypingHub? { backend.typingHub }

    /// The clean-up of shared files, where this process reaches their store (`nil` on the remote
    /// backend, whose server runs it): a server runs a pass every `FileCleanup.interval`, a local
    /// process after each upload of its own.
    public var fileCleanup: FileCleanup? { backend.fileCleanup }

    /// Deletes the messages `which` names for everyone, whoever sent them, in the background
    /// (`MessageErasure`: a server's retention, each deletion after the sends of the moment);
    /// how many it deleted.
    /// - Throws: `.usage` on the remote backend, whose server erases.
    public func erase(_ which: ErasedMessages) async throws -> Int { try await backend.erase(which) }

    /// How many events the store has that `eventFeed` has not handed out yet: how far this
    /// process's live delivery is behind the store (`nil` before anyone listens, or without a store).
    public func feedLag() async -> Int64? { await backend.feedLag() }

    /// Whether the store answers a trivial read within `limit` (always on memory; on remote, the
    /// server is not asked): what a server's health check reports. A read still waiting when
    /// the time is up is left to finish on its own.
    public func storeAnswers(within limit: Duration) async -> Bool {
        let (answers, answer) = AsyncStream<Bool>.makeStream()
        let backend = backend
        let timer = Task {
            try await Task.sleep(for: limit)
            answer.yield(false)
        }
        Task { answer.yield((try? await backend.checkStore()) != nil) }
        var first = answers.makeAsyncIterator()
        defer { timer.cancel() }
        return await first.next() ?? false
    }

    /// Lets go of the connections of the postgres backend (nothing on others); the graph serves
    /// no more after it.
    public func close() { backend.close() }

    /// A session for the demo user, issued without a password: the memory backend's, when Auth
    /// is not among the enabled features. `nil` on other backends.
    public func demoSession() async -> IssuedSession? { await backend.demoSession() }
}
