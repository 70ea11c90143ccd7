import Auth
import Chat
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
    ///   folder, not SQLite, corrupt…); `AppError(.usage)` for a remote backend without a usable URL.
    public init(_ options: GraphOptions) throws {
        self.options = options
        switch options.backend {
        case .memory: backend = MemoryBackend(options)
        case .sqlite: backend = try SQLiteBackend(options)
        case .remote: backend = try RemoteBackend(options)
        }
        verifier = SessionVerifier(accounts: backend.accounts, cacheTime: options.verificationCacheTime)
    }

    /// Accounts and sessions: sign-up, sign-in, token look-up and revocation.
    public var accounts: any AccountService { VerifiedAccounts(accounts: backend.accounts, verifier: verifier) }

    /// The caller a session token stands for (`nil`: nobody). The token is checked on first use
    /// and again whenever the verification cache time has passed.
    public func caller(token: String?) -> Caller {
        guard let token else { return .signedOut }
        let verifier = verifier
        return Caller(token: token) { try await verifier.userID(for: token) }
    }

    /// The sessions ended through this graph from now on (sign-out, password change).
    public func sessionEnds() -> AsyncStream<SessionEnd> { verifier.ends.subscribe() }

    /// The services of `caller`.
    public func services(for caller: Caller) -> ServiceSet { backend.services(for: caller) }

    /// The process's feed of new events on the memory and SQLite backends (`nil` on the remote
    /// one, whose events come from the server): a server pushes its sockets' events from it.
    public var eventFeed: (any EventFeed)? { backend.eventFeed }

    /// A session for the demo user, issued without a password: the memory backend's, when Auth
    /// is not among the enabled features. `nil` on other backends.
    public func demoSession() async -> IssuedSession? { await backend.demoSession() }
}
