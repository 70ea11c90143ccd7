import Kernel
import ServiceGraph

/// One configuration key: its name, default, meaning and check.
public struct SettingKey: Sendable, Equatable {
    /// Dotted key (`memory.latencyMs`); as a flag `--memory-latency-ms`, in the environment
    /// `MESSAGEAI_MEMORY_LATENCY_MS`, in a file as nested keys.
    public let name: String
    /// The value when no source sets it (`nil`: unset).
    public let defaultValue: String?
    /// What it means, for `messageai config` and the README.
    public let summary: String
    /// Checks a value; returns the reason it is wrong, or `nil`.
    let check: @Sendable (String) -> String?

    public static func == (lhs: SettingKey, rhs: SettingKey) -> Bool { lhs.name == rhs.name }

    /// The environment variable it is read from (`MESSAGEAI_MEMORY_LATENCY_MS`).
    public var environmentVariable: String { EnvironmentVariable.name(of: name, prefix: Self.environmentPrefix) }

    /// What every variable of the application's settings starts with.
    static let environmentPrefix = "MESSAGEAI_"
    /// The variable naming the config file, read beside the settings.
    public static let configFileVariable = "MESSAGEAI_CONFIG"

    private init(_ name: String, default defaultValue: String?, _ summary: String, check: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.name = name
        self.defaultValue = defaultValue
        self.summary = summary
        self.check = check
    }

    /// Service implementations: memory, sqlite or remote.
    public static let backend = SettingKey("backend", default: Backend.sqlite.rawValue, "service implementations: memory, sqlite or remote",
                                           check: oneOf(Backend.allCases.map(\.rawValue)))
    /// The front end that runs when no subcommand is given.
    public static let frontend = SettingKey("frontend", default: "repl",
                                            "front end when no subcommand is given: repl or cli (default: repl on a terminal, else cli)",
                                            check: oneOf(["repl", "cli"]))
    /// The enabled features.
    public static let features = SettingKey("features", default: "all", "comma-separated features to enable, or all")
    /// The identity profile.
    public static let profile = SettingKey("profile", default: "default", "identity profile; each keeps its own session and history",
                                           check: { value in value.isEmpty || value.contains("/") || value.hasPrefix(".") ? "must be a plain name" : nil })
    /// The SQLite file.
    public static let sqlitePath = SettingKey("sqlite.path", default: nil,
                                              "sqlite backend: the database file (default $XDG_DATA_HOME/messageai/messageai.sqlite)")
    /// The server of the remote backend.
    public static let remoteURL = SettingKey("remote.url", default: nil, "remote backend: the server, http://host:port or https://host:port")
    /// How long the remote backend waits for the server.
    public static let remoteTimeoutSeconds = SettingKey("remote.timeoutSeconds", default: "10",
                                                        "remote backend: seconds to wait for the server (1–300)", check: integer(1...300))
    /// Certificates the remote backend trusts besides the system's.
    public static let remoteCertificates = SettingKey("remote.certificates", default: nil,
                                                      "remote backend: PEM file of certificates to trust besides the system's (a self-signed server)")
    /// Where sessions and history live.
    public static let stateDir = SettingKey("state.dir", default: nil, "sessions and REPL history (default $XDG_STATE_HOME/messageai)")
    /// bcrypt cost of new password hashes.
    public static let bcryptCost = SettingKey("auth.bcryptCost", default: "12", "bcrypt cost for new password hashes (4–14)",
                                              check: integer(GraphOptions.bcryptCosts))
    /// Days a session may go unused before it ends.
    public static let sessionIdleDays = SettingKey("auth.sessionIdleDays", default: "30", "days a session may go unused before it ends (1–365)",
                                                   check: integer(1...365))
    /// Memory backend: delay added to every call.
    public static let memoryLatencyMs = SettingKey("memory.latencyMs", default: "0", "memory backend: delay added to every call, ms",
                                                   check: integer(0...60_000))
    /// Memory backend: share of calls that fail.
    public static let memoryFailureRate = SettingKey("memory.failureRate", default: "0", "memory backend: share of calls that fail, 0–1", check: { value in
        Double(value).map { (0...1).contains($0) } == true ? nil : "must be a number from 0 to 1"
    })
    /// Memory backend: how long mock users take to answer.
    public static let memoryPeerDelayMs = SettingKey("memory.peerDelayMs", default: "1200", "memory backend: how long mock users take to answer, ms",
                                                     check: integer(0...600_000))

    /// Every key the application reads, in the order `messageai config` lists them.
    public static let all: [SettingKey] = [
        backend, frontend, features, profile, sqlitePath, remoteURL, remoteTimeoutSeconds, remoteCertificates, stateDir, bcryptCost, sessionIdleDays, memoryLatencyMs, memoryFailureRate,
        memoryPeerDelayMs,
    ]

    private static func oneOf(_ allowed: [String]) -> @Sendable (String) -> String? {
        { allowed.contains($0) ? nil : "must be one of \(allowed.joined(separator: ", "))" }
    }

    private static func integer(_ range: ClosedRange<Int>) -> @Sendable (String) -> String? {
        { Int($0).map(range.contains) == true ? nil : "must be a whole number from \(range.lowerBound) to \(range.upperBound)" }
    }
}
