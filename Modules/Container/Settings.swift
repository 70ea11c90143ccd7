import CLIKit
import Files
import Foundation
import Kernel
import RemoteClient
import ServiceGraph
import SettingsKit

/// The effective configuration of `messageai` (`Settings.table`'s keys, loaded once a run):
/// each key's value and the source it came from, and typed views of them.
public struct Settings: Sendable {
    /// The values as loaded.
    public let loaded: LoadedSettings

    /// Loads the settings: command line > `MESSAGEAI_*` environment > config file (`--config`,
    /// `MESSAGEAI_CONFIG`, else `$XDG_CONFIG_HOME/messageai/config.yaml` if it exists) > defaults.
    /// - Throws: `AppError(.usage)` naming the key or file that is wrong.
    public static func load(commandLine: [String: String], configFile: String?, environment: [String: String]) throws -> Settings {
        let configs = LoadedSettings.xdgDirectory("XDG_CONFIG_HOME", fallback: ".config", in: environment)
        return Settings(
            loaded: try SettingsLoader.load(
                table, commandLine: commandLine, configFile: configFile,
                defaultConfigFile: configs.appendingPathComponent("config.yaml").path, environment: environment))
    }

    /// Every key's entry, in the table's order.
    public var entries: [(key: SettingKey, entry: LoadedSettings.Entry)] { loaded.entries }
    /// The environment the process was started with (for XDG paths).
    public var environment: [String: String] { loaded.environment }

    /// The entry of `key`: its value (its default when no source sets it) and where that came from.
    public func entry(_ key: SettingKey) -> LoadedSettings.Entry { loaded.entry(key) }

    /// The value of `key` (its default when no source sets it).
    public func value(_ key: SettingKey) -> String? { loaded.value(key) }

    /// The backend.
    public var backend: Backend { Backend(rawValue: value(.backend) ?? "") ?? .sqlite }
    /// The identity profile.
    public var profile: String { value(.profile) ?? "default" }

    /// How front ends that stay open tell of a direct message or a mention (`notify.style`,
    /// `notify.command`), writing to the terminal with `write`.
    public func notifier(write: @escaping @Sendable (String) -> Void) -> Notifier {
        Notifier(
            style: Notifier.Style(rawValue: value(.notifyStyle) ?? "") ?? .auto, command: value(.notifyCommand), environment: environment,
            write: write)
    }
    /// The `features` setting, lower case: feature names, or `all`.
    public var features: Set<String> {
        Set((value(.features) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
    }

    /// True when the `features` setting enables `feature` (by name, or by `all`).
    public func enables(_ feature: String) -> Bool {
        features.contains("all") || features.contains(feature.lowercased())
    }
    /// Simulated latency and failures of the memory backend.
    public var memoryConditions: SimulatedConditions {
        SimulatedConditions(latency: .milliseconds(int(.memoryLatencyMs)), failureRate: Double(value(.memoryFailureRate) ?? "") ?? 0)
    }
    /// Whole-number value of `key` (values are checked when loaded, so this cannot fail for the
    /// keys that take numbers).
    public func int(_ key: SettingKey) -> Int { loaded.int(key) }

    /// What the service graph is opened with.
    public var graphOptions: GraphOptions {
        GraphOptions(
            backend: backend, sqlitePath: sqlitePath, bcryptCost: int(.bcryptCost),
            sessionIdleLimit: Double(int(.sessionIdleDays)) * 86_400, memoryConditions: memoryConditions,
            peerDelay: .milliseconds(int(.memoryPeerDelayMs)), remoteURL: value(.remoteURL),
            remoteTimeout: .seconds(int(.remoteTimeoutSeconds)), remoteCertificates: value(.remoteCertificates),
            fileLimits: FileLimits(maxBytes: Int64(int(.filesMaxBytes))))
    }

    /// Where sessions and history live: `state.dir`, else `$XDG_STATE_HOME/messageai`, else `~/.local/state/messageai`.
    public var stateDirectory: URL {
        if let dir = value(.stateDir) { return URL(fileURLWithPath: dir, isDirectory: true) }
        return loaded.xdgDirectory("XDG_STATE_HOME", fallback: ".local/state")
    }

    /// The file keeping this profile's session with this backend (for remote: with this server).
    public var sessionFile: URL {
        stateDirectory.appendingPathComponent("sessions", isDirectory: true).appendingPathComponent("\(fileStem).json")
    }

    /// The file keeping this profile's unsent messages for the remote backend's server.
    public var outboxFile: URL {
        stateDirectory.appendingPathComponent("outbox", isDirectory: true).appendingPathComponent("\(fileStem).json")
    }

    /// `<profile>-<backend>`, and for remote `-<host>_<port>`: what is kept per profile and server.
    private var fileStem: String {
        let server = backend == .remote ? (try? ServerAddress(value(.remoteURL) ?? "")).map { "-" + $0.fileName } ?? "" : ""
        return "\(profile)-\(backend.rawValue)\(server)"
    }

    /// The SQLite file: `sqlite.path`, else `$XDG_DATA_HOME/messageai/messageai.sqlite`, else
    /// `~/.local/share/messageai/messageai.sqlite`.
    public var sqlitePath: String {
        value(.sqlitePath) ?? loaded.xdgDirectory("XDG_DATA_HOME", fallback: ".local/share").appendingPathComponent("messageai.sqlite").path
    }

    /// The value `key` takes effect with: its own, or for the paths their XDG default.
    public func effectiveValue(_ key: SettingKey) -> String? {
        switch key {
        case .sqlitePath: sqlitePath
        case .stateDir: stateDirectory.path
        default: value(key)
        }
    }

}
