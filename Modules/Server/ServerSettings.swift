import Auth
import Files
import Foundation
import Kernel
import ServerSupport
import ServiceGraph
import SettingsKit

/// What `messageai-server` runs with. Each value comes from, in order: its command-line option,
/// `MESSAGEAI_SERVER_<KEY>` in the environment (key `sqlite.path` → `MESSAGEAI_SERVER_SQLITE_PATH`),
/// a config file (`--config`: YAML, or JSON when its name ends in `.json`), and the default
/// stated in `Key`.
public struct ServerSettings: Sendable {
    /// Address to listen on.
    public var host: String
    /// Port to listen on; 0 picks a free one (the first log line tells which).
    public var port: Int
    /// The SQLite file.
    public var sqlitePath: String
    /// The PostgreSQL database to store everything in instead of the SQLite file, which several
    /// instances may share.
    public var postgresURL: String?
    /// Most connections to the PostgreSQL database at once, for queries.
    public var postgresConnections: Int
    /// Certificate chain (PEM) to serve HTTPS and WSS with; needs `tlsKey`.
    public var tlsCertificate: String?
    /// Private key (PEM) of `tlsCertificate`.
    public var tlsKey: String?
    /// bcrypt cost of new password hashes.
    public var bcryptCost: Int
    /// Log level: trace, debug, info, notice, warning, error or critical.
    public var logLevel: String
    /// Sign-ups one client address may make at once (then one every 3 s).
    public var signUpBurst: Int
    /// Seconds an events socket may be silent before the server pings it; one silent for twice
    /// as long is closed as dead.
    public var pingSeconds: Int
    /// Frames an events socket may have waiting for its client before it is closed as too slow.
    public var socketQueueFrames: Int
    /// Seconds a connection may go without a request (or an unfinished one) before it is closed.
    public var idleSeconds: Int
    /// Most connections one client address may hold open at once.
    public var connectionsPerAddress: Int
    /// The load balancers in front of the server, whose `X-Forwarded-For` names the client.
    public var trustedProxies: ClientAddress.TrustedProxies
    /// What one person may do how often.
    public var budget: ServerBudget.Limits
    /// Requests of one account served at once, HTTP and over its events sockets.
    public var requestsAtOnce: Int
    /// How many days messages are kept (`retention.days`; 0: for ever).
    public var retentionDays: Int
    /// Whether everyone signed in may make invitation codes (`registration.invitesBy`), not admins alone.
    public var invitesByEveryone: Bool
    /// How big shared files may be: per file, and what each person keeps.
    public var fileLimits: FileLimits
    /// Who may sign up: `registration.mode`, `auto` made `open` on a loopback address and
    /// `invite` on any other or behind a proxy (`registration(_:host:behindProxy:)`).
    public var registration: RegistrationMode

    /// The server's settings: each one's name, default, range and meaning, once.
    public enum Key {
        /// Address to listen on.
        public static let host = SettingKey("host", default: "127.0.0.1", "address to listen on (0.0.0.0: every interface)")
        /// Port to listen on.
        public static let port = SettingKey.integer("port", default: 8080, "port to listen on, 0 for any free one", in: 0...65_535)
        /// The SQLite file.
        public static let sqlitePath = SettingKey("sqlite.path", default: nil, "the database file (unset: $XDG_DATA_HOME/messageai/server.sqlite)")
        /// The PostgreSQL database.
        public static let postgresURL = SettingKey(
            "postgres.url", default: nil,
            "a PostgreSQL database to store everything in instead of the SQLite file, shared by every instance "
                + "given it: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (?host=/folder for a unix socket)")
        /// Connections to the PostgreSQL database.
        public static let postgresConnections = SettingKey.integer(
            "postgres.connections", default: GraphOptions.defaultPostgresConnections,
            "most connections to the PostgreSQL database at once for queries (one more listens for commits)",
            in: 1...1_000)
        /// Certificate chain to serve TLS with.
        public static let tlsCertificate = SettingKey("tls.cert", default: nil, "PEM certificate chain: serve HTTPS and WSS (with tls.key)")
        /// Private key of the certificate.
        public static let tlsKey = SettingKey("tls.key", default: nil, "PEM private key of tls.cert")
        /// bcrypt cost of new password hashes.
        public static let bcryptCost = SettingKey.integer(
            "auth.bcryptCost", default: GraphOptions.defaultBcryptCost,
            "bcrypt cost of new password hashes", in: GraphOptions.bcryptCosts)
        /// Least severe log level written.
        public static let logLevel = SettingKey.oneOf(
            "log.level", default: "info", "log level",
            ["trace", "debug", "info", "notice", "warning", "error", "critical"])
        /// Sign-ups per client address at once.
        public static let signUpBurst = SettingKey.integer(
            "auth.signUpBurst", default: 20,
            "sign-ups one client address may make at once, then one every 3 s", in: 1...100_000)
        /// Silence before an events socket is pinged.
        public static let pingSeconds = SettingKey.integer(
            "events.pingSeconds", default: Int(EventSocketProtocol.pingInterval.components.seconds),
            "seconds an events socket may be silent before it is pinged; twice that unanswered closes it",
            in: 1...3_600)
        /// Frames waiting for a client before its socket is closed as too slow.
        public static let socketQueueFrames = SettingKey.integer(
            "events.queueFrames", default: EventSocketProtocol.queueFrames,
            "frames an events socket may have waiting for its client before it is closed as too slow (4408)",
            in: 1...100_000)
        /// Silence before an HTTP connection is closed.
        public static let idleSeconds = SettingKey.integer(
            "http.idleSeconds", default: 60,
            "seconds a connection may go without sending a request, or in the middle of one, before it is closed",
            in: 1...3_600)
        /// Connections per client address.
        public static let connectionsPerAddress = SettingKey.integer(
            "http.connectionsPerAddress", default: 256,
            "connections one client address (an IPv6 one by its /64) may hold open at once; more are closed as they come", in: 1...1_000_000)
        /// Load balancers whose forwarded addresses are believed.
        public static let trustedProxies = SettingKey(
            "http.trustedProxies", default: nil,
            "IP addresses of the load balancers in front of the server, comma-separated: "
                + "a request from one of them is from the client its X-Forwarded-For names")
        /// Messages per person per minute.
        public static let messagesPerMinute = SettingKey.integer(
            "budget.messagesPerMinute", default: ServerBudget.Limits().messagesPerMinute,
            "messages one person may send a minute, a tenth of them at once", in: 1...100_000_000)
        /// Text times recipients per person per minute.
        public static let fanOutMegabytesPerMinute = SettingKey.integer(
            "budget.fanOutMegabytesPerMinute", default: ServerBudget.Limits().fanOutMegabytesPerMinute,
            "MiB of text times recipients one person may send a minute, all at once", in: 1...1_000_000)
        /// New conversations per person per hour.
        public static let conversationsPerHour = SettingKey.integer(
            "budget.conversationsPerHour", default: ServerBudget.Limits().conversationsPerHour,
            "conversations one person may start an hour, a sixth of them at once", in: 1...100_000_000)
        /// Display-name changes per person per hour.
        public static let renamesPerHour = SettingKey.integer(
            "budget.renamesPerHour", default: ServerBudget.Limits().renamesPerHour,
            "display-name changes one person may make an hour, a twelfth of them at once",
            in: 1...100_000_000)
        /// Look-ups per person per minute (`UsageBudget.Action.lookup`).
        public static let lookupsPerMinute = SettingKey.integer(
            "budget.lookupsPerMinute", default: ServerBudget.Limits().lookupsPerMinute,
            "look-ups one person may make a minute (people, searches, reads, blocks and privacy), half of them at once",
            in: 1...100_000_000)
        /// Mebibytes of files uploaded per person per hour.
        public static let uploadMegabytesPerHour = SettingKey.integer(
            "budget.uploadMegabytesPerHour", default: ServerBudget.Limits().uploadMegabytesPerHour,
            "MiB of files one person may upload an hour, all at once", in: 1...10_000_000)
        /// Largest file, in bytes.
        public static let filesMaxBytes = SettingKey.integer(
            "files.maxBytes", default: Int(FileLimits.defaultMaxBytes), "largest file one person may share, in bytes (0: files off)",
            in: 0...(1 << 40))
        /// Each person's storage quota, in MiB.
        public static let filesQuotaMegabytes = SettingKey.integer(
            "files.quotaMegabytes", default: Int(FileLimits.defaultQuota >> 20), "MiB of files each person may keep on the server",
            in: 1...100_000_000)
        /// Who may sign up.
        public static let registrationMode = SettingKey.oneOf(
            "registration.mode", default: "auto",
            "who may make an account: open (anyone), invite (with a code of `messageai-server admin invites create`), closed, or auto (open on a loopback address, invite on any other or behind a trusted proxy)",
            ["auto", "open", "invite", "closed"])
        /// Who may make invitation codes.
        public static let invitesBy = SettingKey.oneOf(
            "registration.invitesBy", default: "admins",
            "who may make invitation codes: admins (and the operator), or everyone signed in (at most 5 sign-ups and 7 days a code, from the budget of new conversations)",
            ["admins", "everyone"])
        /// How long messages are kept.
        public static let retentionDays = SettingKey.integer(
            "retention.days", default: 0,
            "delete messages older than this many days for everyone (tombstones stay; texts, files and their index words go), by a pass every hour; 0 keeps them",
            in: 0...36_500)
        /// Requests of one account served at once.
        public static let requestsAtOnce = SettingKey.integer(
            "budget.requestsAtOnce", default: AccountRequests.productLimit,
            "requests of one account (HTTP, and sends and typing over its events sockets) served at once; more are refused with 429",
            in: 1...100_000)
    }

    /// Every key of the server, read from `MESSAGEAI_SERVER_` variables.
    public static let table = SettingTable(
        environmentPrefix: "MESSAGEAI_SERVER_",
        keys: [
            Key.host, Key.port, Key.sqlitePath, Key.postgresURL, Key.postgresConnections, Key.tlsCertificate, Key.tlsKey, Key.bcryptCost,
            Key.logLevel, Key.signUpBurst, Key.pingSeconds,
            Key.socketQueueFrames, Key.idleSeconds, Key.connectionsPerAddress, Key.trustedProxies,
            Key.messagesPerMinute, Key.fanOutMegabytesPerMinute, Key.conversationsPerHour, Key.renamesPerHour, Key.lookupsPerMinute,
            Key.uploadMegabytesPerHour, Key.requestsAtOnce, Key.filesMaxBytes, Key.filesQuotaMegabytes, Key.registrationMode,
            Key.retentionDays, Key.invitesBy,
        ])

    /// Settings with every default.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(LoadedSettings(defaultsOf: Self.table, environment: environment))
    }

    /// Loads the settings.
    /// - Parameters:
    ///   - commandLine: keys set by command-line options.
    ///   - configFile: a file of keys (`port: 9000` and `sqlite: {path: …}` in YAML, or the same in JSON).
    /// - Throws: `AppError(.usage)` naming the key that is wrong.
    public static func load(commandLine: [String: String], configFile: String?, environment: [String: String]) throws -> ServerSettings {
        let loaded = try SettingsLoader.load(table, commandLine: commandLine, configFile: configFile, environment: environment)
        var settings = ServerSettings(loaded)
        settings.trustedProxies = try ClientAddress.TrustedProxies(
            (loaded.value(Key.trustedProxies) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        guard (settings.tlsCertificate == nil) == (settings.tlsKey == nil) else {
            throw AppError(.usage, "--tls-cert and --tls-key go together")
        }
        return settings
    }

    private init(_ loaded: LoadedSettings) {
        host = loaded.string(Key.host)
        port = loaded.int(Key.port)
        sqlitePath =
            loaded.value(Key.sqlitePath)
            ?? loaded.xdgDirectory("XDG_DATA_HOME", fallback: ".local/share").appendingPathComponent("server.sqlite").path
        postgresURL = loaded.value(Key.postgresURL)
        postgresConnections = loaded.int(Key.postgresConnections)
        tlsCertificate = loaded.value(Key.tlsCertificate)
        tlsKey = loaded.value(Key.tlsKey)
        bcryptCost = loaded.int(Key.bcryptCost)
        logLevel = loaded.string(Key.logLevel)
        signUpBurst = loaded.int(Key.signUpBurst)
        pingSeconds = loaded.int(Key.pingSeconds)
        socketQueueFrames = loaded.int(Key.socketQueueFrames)
        idleSeconds = loaded.int(Key.idleSeconds)
        connectionsPerAddress = loaded.int(Key.connectionsPerAddress)
        trustedProxies = .none
        budget = ServerBudget.Limits()
        budget.messagesPerMinute = loaded.int(Key.messagesPerMinute)
        budget.fanOutMegabytesPerMinute = loaded.int(Key.fanOutMegabytesPerMinute)
        budget.conversationsPerHour = loaded.int(Key.conversationsPerHour)
        budget.renamesPerHour = loaded.int(Key.renamesPerHour)
        budget.lookupsPerMinute = loaded.int(Key.lookupsPerMinute)
        budget.uploadMegabytesPerHour = loaded.int(Key.uploadMegabytesPerHour)
        fileLimits = FileLimits(maxBytes: Int64(loaded.int(Key.filesMaxBytes)), quota: Int64(loaded.int(Key.filesQuotaMegabytes)) << 20)
        requestsAtOnce = loaded.int(Key.requestsAtOnce)
        retentionDays = loaded.int(Key.retentionDays)
        invitesByEveryone = loaded.string(Key.invitesBy) == "everyone"
        registration = Self.registration(
            loaded.string(Key.registrationMode), host: host, behindProxy: !(loaded.value(Key.trustedProxies) ?? "").isEmpty)
    }

    /// The registration mode `setting` means for a server on `host`: `auto` is `open` on a
    /// loopback address (only this machine reaches it: nothing to set up) and `invite` on any
    /// other, or `behindProxy` (a balancer on this machine may pass the world to a loopback
    /// address), so that a server others reach never runs open unless told to (ADR 38).
    public static func registration(_ setting: String, host: String, behindProxy: Bool) -> RegistrationMode {
        if let mode = RegistrationMode(rawValue: setting) { return mode }
        let loopback = host == "localhost" || host == "::1" || host.hasPrefix("127.")
        return loopback && !behindProxy ? .open : .invite
    }
}
