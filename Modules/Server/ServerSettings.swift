import Configuration
import Foundation
import Kernel
import ServerSupport

/// What `messageai-server` runs with. Each value comes from, in order: its command-line option,
/// `MESSAGEAI_SERVER_<KEY>` in the environment (key `sqlite.path` → `MESSAGEAI_SERVER_SQLITE_PATH`),
/// a JSON config file (`--config`), and the default.
public struct ServerSettings: Sendable {
    /// Address to listen on.
    public var host = "127.0.0.1"
    /// Port to listen on; 0 picks a free one (the first log line tells which).
    public var port = 8080
    /// The SQLite file.
    public var sqlitePath: String
    /// Certificate chain (PEM) to serve HTTPS and WSS with; needs `tlsKey`.
    public var tlsCertificate: String?
    /// Private key (PEM) of `tlsCertificate`.
    public var tlsKey: String?
    /// bcrypt cost of new password hashes (4–14).
    public var bcryptCost = 12
    /// Log level: trace, debug, info, notice, warning, error or critical.
    public var logLevel = "info"
    /// Sign-ups one client address may make at once (then one every 3 s).
    public var signUpBurst = 20
    /// Seconds an events socket may be silent before the server pings it; one silent for twice
    /// as long is closed as dead.
    public var pingSeconds = Int(EventSocketProtocol.pingInterval.components.seconds)
    /// What one person may do how often.
    public var budget = ServerBudget.Limits()

    /// The keys a config file or the environment may set, with what they mean.
    public static let keys: [(name: String, summary: String)] = [
        ("host", "address to listen on (default 127.0.0.1)"),
        ("port", "port to listen on, 0 for any free one (default 8080)"),
        ("sqlite.path", "the database file (default $XDG_DATA_HOME/messageai/server.sqlite)"),
        ("tls.cert", "PEM certificate chain: serve HTTPS/WSS (with tls.key)"),
        ("tls.key", "PEM private key of tls.cert"),
        ("auth.bcryptCost", "bcrypt cost of new password hashes, 4–14 (default 12)"),
        ("log.level", "trace, debug, info, notice, warning, error or critical (default info)"),
        ("auth.signUpBurst", "sign-ups one client address may make at once, then one every 3 s, 1–100000 (default 20)"),
        ("events.pingSeconds", "seconds an events socket may be silent before it is pinged; twice that unanswered closes it, 1–3600 (default 30)"),
        ("budget.messagesPerMinute", "messages one person may send a minute, a tenth of them at once, 1–100000000 (default 300)"),
        ("budget.fanOutMegabytesPerMinute", "MiB of text times recipients one person may send a minute, all at once, 1–1000000 (default 16)"),
        ("budget.conversationsPerHour", "conversations one person may start an hour, a sixth of them at once, 1–100000000 (default 120)"),
        ("budget.renamesPerHour", "display-name changes one person may make an hour, a twelfth of them at once, 1–100000000 (default 60)"),
        ("budget.lookupsPerMinute", "people look-ups and searches one person may make a minute, half of them at once, 1–100000000 (default 120)"),
    ]

    /// What every variable of the server's settings starts with.
    public static let environmentPrefix = "MESSAGEAI_SERVER_"

    /// The environment variable `key` is read from (`auth.bcryptCost` → `MESSAGEAI_SERVER_AUTH_BCRYPT_COST`).
    public static func environmentVariable(of key: String) -> String { EnvironmentVariable.name(of: key, prefix: environmentPrefix) }

    /// The `MESSAGEAI_SERVER_` variables of `environment` that name no setting.
    public static func unknownVariables(in environment: [String: String]) -> [EnvironmentVariable.Unknown] {
        EnvironmentVariable.unknown(in: environment, prefix: environmentPrefix, known: Set(keys.map { environmentVariable(of: $0.name) }))
    }

    /// Settings with every default.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        sqlitePath = data + "/messageai/server.sqlite"
    }

    /// Loads the settings.
    /// - Parameters:
    ///   - commandLine: keys set by command-line options.
    ///   - configFile: a JSON file of keys (`{"port": 9000, "sqlite": {"path": "…"}}`).
    /// - Throws: `AppError(.usage)` naming the key that is wrong.
    public static func load(commandLine: [String: String], configFile: String?, environment: [String: String]) throws -> ServerSettings {
        var snapshots: [any ConfigSnapshot] = [
            InMemoryProvider(name: "command line", values: commandLine.reduce(into: [:]) { values, pair in
                values[AbsoluteConfigKey(pair.key.split(separator: ".").map(String.init))] = ConfigValue(.string(pair.value), isSecret: false)
            }).snapshot(),
            EnvironmentVariablesProvider(environmentVariables: environment.reduce(into: [:]) { result, pair in
                if pair.key.hasPrefix(environmentPrefix) { result[String(pair.key.dropFirst(environmentPrefix.count))] = pair.value }
            }).snapshot(),
        ]
        if let configFile { snapshots.append(try file(configFile)) }
        func value(_ key: String) -> String? {
            let absolute = AbsoluteConfigKey(key.split(separator: ".").map(String.init))
            for snapshot in snapshots {
                for type in [ConfigType.string, .int] {
                    switch try? snapshot.value(forKey: absolute, type: type).value?.content {
                    case .string(let text): return text
                    case .int(let number): return String(number)
                    default: continue
                    }
                }
            }
            return nil
        }
        func integer(_ key: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let raw = value(key) else { return nil }
            guard let number = Int(raw), range.contains(number) else {
                throw AppError(.usage, "\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(AppError.quoting(raw))")
            }
            return number
        }
        var settings = ServerSettings(environment: environment)
        settings.host = value("host") ?? settings.host
        settings.port = try integer("port", 0...65_535) ?? settings.port
        settings.sqlitePath = value("sqlite.path") ?? settings.sqlitePath
        settings.tlsCertificate = value("tls.cert")
        settings.tlsKey = value("tls.key")
        settings.bcryptCost = try integer("auth.bcryptCost", 4...14) ?? settings.bcryptCost
        settings.logLevel = value("log.level") ?? settings.logLevel
        settings.signUpBurst = try integer("auth.signUpBurst", 1...100_000) ?? settings.signUpBurst
        settings.pingSeconds = try integer("events.pingSeconds", 1...3_600) ?? settings.pingSeconds
        settings.budget.messagesPerMinute = try integer("budget.messagesPerMinute", 1...100_000_000) ?? settings.budget.messagesPerMinute
        settings.budget.fanOutMegabytesPerMinute = try integer("budget.fanOutMegabytesPerMinute", 1...1_000_000) ?? settings.budget.fanOutMegabytesPerMinute
        settings.budget.conversationsPerHour = try integer("budget.conversationsPerHour", 1...100_000_000) ?? settings.budget.conversationsPerHour
        settings.budget.renamesPerHour = try integer("budget.renamesPerHour", 1...100_000_000) ?? settings.budget.renamesPerHour
        settings.budget.lookupsPerMinute = try integer("budget.lookupsPerMinute", 1...100_000_000) ?? settings.budget.lookupsPerMinute
        guard ["trace", "debug", "info", "notice", "warning", "error", "critical"].contains(settings.logLevel) else {
            throw AppError(.usage, "log.level must be trace, debug, info, notice, warning, error or critical, not \(AppError.quoting(settings.logLevel))")
        }
        guard (settings.tlsCertificate == nil) == (settings.tlsKey == nil) else {
            throw AppError(.usage, "--tls-cert and --tls-key go together")
        }
        return settings
    }

    /// Largest config file read, in bytes.
    private static let maxConfigBytes = 65_536

    private static func file(_ path: String) throws -> any ConfigSnapshot {
        guard let bytes = try RegularFile.read(path, what: "config file", maxBytes: maxConfigBytes, kind: .usage) else {
            throw AppError(.usage, "config file \(path) does not exist")
        }
        do {
            return try JSONSnapshot(data: bytes.span.bytes, providerName: path, parsingOptions: .default)
        } catch {
            throw AppError(.usage, "config file \(path) is not a JSON object of settings")
        }
    }
}
