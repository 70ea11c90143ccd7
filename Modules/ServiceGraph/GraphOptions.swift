import Auth
import AuthLive
import Files
import Foundation
import Kernel

/// What a service graph is opened with. The client maps its settings to these; the server maps its own.
public struct GraphOptions: Sendable {
    /// Which implementations serve.
    public var backend: Backend
    /// The SQLite file of the `sqlite` backend.
    public var sqlitePath: String
    /// The database of the `postgres` backend, `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`.
    public var postgresURL: String?
    /// Most connections the `postgres` backend opens to its database at once for its queries.
    public var postgresConnections: Int
    /// The product's `postgresConnections`.
    public static let defaultPostgresConnections = 10
    /// bcrypt cost of new password hashes.
    public var bcryptCost: Int
    /// The bcrypt costs accepted: each step doubles the time; 14 takes about four times 12's.
    public static let bcryptCosts = BcryptPasswordHasher.costs
    /// The bcrypt cost of the product: deliberately slow (a quarter of a second a check here).
    public static let defaultBcryptCost = 12
    /// How long a session may go unused before it ends.
    public var sessionIdleLimit: TimeInterval
    /// Latency and failures the memory backend adds on purpose.
    public var memoryConditions: SimulatedConditions
    /// How long the memory backend's mock users take to answer.
    public var peerDelay: Duration
    /// How long a verified session token is trusted before it is checked again: the most a
    /// session revoked by another process keeps working here.
    public var verificationCacheTime: Duration
    /// The time source of every service (tests pass one they control).
    public var clock: any WallClock
    /// The server of the `remote` backend (`http://host:port` or `https://…`).
    public var remoteURL: String?
    /// How long the remote backend waits for the server.
    public var remoteTimeout: Duration
    /// A PEM file of certificates the remote backend trusts besides the system's.
    public var remoteCertificates: String?
    /// The process makes nearly every commit to the SQLite file itself (the server): other
    /// processes' commits are looked for once a second rather than by watching the file, whose
    /// every write the kernel would otherwise report.
    public var soleWriter: Bool
    /// What one person may do how often (the server's); none by default.
    public var budget: UsageBudget
    /// How big shared files may be: per file (`files.maxBytes`), and per person on a server.
    public var fileLimits: FileLimits
    /// Who may sign up (a server's `registration.mode`); a local store is open to its person.
    public var registration: RegistrationMode
    /// Where each entry of the audit record (an admin's or operator's action) is also written:
    /// the process's log. Nowhere by default.
    public var auditLog: @Sendable (AuditEntry) -> Void = { _ in }
    /// Whether everyone signed in may make invitation codes, each paid from `budget` (a server's
    /// `registration.invitesBy: everyone`); admins alone by default.
    public var invitesByEveryone = false

    /// Creates options; the defaults are the product's.
    public init(
        backend: Backend, sqlitePath: String, bcryptCost: Int = defaultBcryptCost, sessionIdleLimit: TimeInterval = AuthRules.defaultIdleLimit,
        memoryConditions: SimulatedConditions = .none, peerDelay: Duration = .milliseconds(1_200),
        verificationCacheTime: Duration = .seconds(2), clock: any WallClock = SystemWallClock(), remoteURL: String? = nil,
        remoteTimeout: Duration = .seconds(10), remoteCertificates: String? = nil, soleWriter: Bool = false,
        budget: UsageBudget = .unlimited, postgresURL: String? = nil, postgresConnections: Int = defaultPostgresConnections,
        fileLimits: FileLimits = FileLimits(), registration: RegistrationMode = .open
    ) {
        self.backend = backend
        self.sqlitePath = sqlitePath
        self.postgresURL = postgresURL
        self.postgresConnections = postgresConnections
        self.bcryptCost = bcryptCost
        self.sessionIdleLimit = sessionIdleLimit
        self.memoryConditions = memoryConditions
        self.peerDelay = peerDelay
        self.verificationCacheTime = verificationCacheTime
        self.clock = clock
        self.remoteURL = remoteURL
        self.remoteTimeout = remoteTimeout
        self.remoteCertificates = remoteCertificates
        self.soleWriter = soleWriter
        self.budget = budget
        self.fileLimits = fileLimits
        self.registration = registration
    }
}

/// Which service implementations the graph builds.
public enum Backend: String, CaseIterable, Sendable {
    /// In-process services with seeded mock data.
    case memory
    /// An embedded SQLite database file.
    case sqlite
    /// The MessageAI server over HTTP and WebSocket.
    case remote
    /// A PostgreSQL database that several server instances share (the server's).
    case postgres
}
