import Kernel

/// Every setting of one executable, and how the environment names them: the one place from
/// which its settings are loaded, listed and explained.
public struct SettingTable: Sendable {
    /// What each of its environment variables starts with (`MESSAGEAI_`).
    public let environmentPrefix: String
    /// The keys, in the order they are listed.
    public let keys: [SettingKey]
    /// The variable that names a config file (`MESSAGEAI_CONFIG`).
    public let configFileVariable: String
    /// Prefixes of other programs' variables within `environmentPrefix`, never warned about.
    public let otherPrefixes: [String]

    /// A table of `keys`, read from variables starting with `environmentPrefix`.
    public init(environmentPrefix: String, keys: [SettingKey], otherPrefixes: [String] = []) {
        self.environmentPrefix = environmentPrefix
        self.keys = keys
        configFileVariable = environmentPrefix + "CONFIG"
        self.otherPrefixes = otherPrefixes
    }

    /// The environment variable `key` is read from.
    public func environmentVariable(of key: SettingKey) -> String { EnvironmentVariable.name(of: key.name, prefix: environmentPrefix) }

    /// The variables of `environment` with the prefix that name no setting (nor the config file,
    /// nor a test's fault point).
    public func unknownVariables(in environment: [String: String]) -> [EnvironmentVariable.Unknown] {
        EnvironmentVariable.unknown(
            in: environment, prefix: environmentPrefix,
            known: Set(keys.map(environmentVariable(of:)) + [configFileVariable, FaultPoint.variable]),
            otherPrefixes: otherPrefixes)
    }

    /// Every key with its variable and help, one per line, for `--help`.
    public var help: String {
        "Settings (config key, environment variable: meaning):\n"
            + keys.map { "  \($0.name), \(environmentVariable(of: $0)): \($0.help)" }.joined(separator: "\n")
            + "\n  (a config file: --config or \(configFileVariable); a \(environmentPrefix) variable that names no setting is warned about)"
    }
}
