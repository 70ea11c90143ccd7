import Configuration
import Foundation
import CLIKit
import Kernel

/// Builds `Settings` from, in order of precedence: command-line options, `MESSAGEAI_*`
/// environment variables, a config file (YAML or JSON), and the defaults. Parsing of the
/// environment and of files is swift-configuration's; this type adds the per-key source and the
/// checks that name the key of a bad value.
public enum SettingsLoader {
    /// Loads the settings.
    /// - Parameters:
    ///   - commandLine: keys set by command-line options.
    ///   - configFile: the `--config` path; a missing file is then an error.
    ///   - environment: the process environment.
    /// - Throws: `AppError(.usage)` naming the key or file that is wrong.
    public static func load(commandLine: [String: String], configFile: String?, environment: [String: String]) async throws -> Settings {
        var sources: [(name: String, snapshot: any ConfigSnapshot)] = [
            ("command line", InMemoryProvider(name: "command line", values: commandLine.reduce(into: [:]) { values, pair in
                values[AbsoluteConfigKey(pair.key.split(separator: ".").map(String.init))] = ConfigValue(.string(pair.value), isSecret: false)
            }).snapshot()),
            ("environment", EnvironmentVariablesProvider(environmentVariables: prefixed(environment)).snapshot()),
        ]
        let explicitFile = configFile ?? environment[SettingKey.configFileVariable]
        let path = explicitFile ?? defaultConfigPath(environment)
        if let file = try fileSnapshot(path: path, required: explicitFile != nil) { sources.append((path, file)) }

        var entries: [(key: SettingKey, entry: Settings.Entry)] = []
        for key in SettingKey.all {
            let absolute = AbsoluteConfigKey(key.name.split(separator: ".").map(String.init))
            let found = sources.lazy.compactMap { source in lookup(absolute, in: source.snapshot).map { ($0, source.name) } }.first
            let entry = found.map { Settings.Entry(value: $0.0, source: $0.1) } ?? Settings.Entry(value: key.defaultValue, source: "default")
            if let value = entry.value, let problem = key.check(value) {
                throw AppError(.usage, "configuration key '\(key.name)' (from \(entry.source)): \(AppError.quoting(value)) \(problem)")
            }
            entries.append((key, entry))
        }
        return Settings(entries: entries, environment: environment)
    }

    /// `MESSAGEAI_SQLITE_PATH` → `SQLITE_PATH`; other variables are ignored.
    private static func prefixed(_ environment: [String: String]) -> [String: String] {
        let prefix = SettingKey.environmentPrefix
        return environment.reduce(into: [:]) { result, pair in
            if pair.key.hasPrefix(prefix), pair.key != SettingKey.configFileVariable { result[String(pair.key.dropFirst(prefix.count))] = pair.value }
        }
    }

    /// The `MESSAGEAI_` variables of `environment` that name no setting (those of
    /// `messageai-server`, `MESSAGEAI_SERVER_…`, are its own).
    public static func unknownVariables(in environment: [String: String]) -> [EnvironmentVariable.Unknown] {
        EnvironmentVariable.unknown(in: environment, prefix: SettingKey.environmentPrefix,
                                    known: Set(SettingKey.all.map(\.environmentVariable) + [SettingKey.configFileVariable]),
                                    otherPrefixes: ["MESSAGEAI_SERVER_"])
    }

    private static func defaultConfigPath(_ environment: [String: String]) -> String {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config")
        return base + "/messageai/config.yaml"
    }

    /// Largest config file read.
    static let maxConfigBytes = 65_536

    /// The config file at `path`, read once, bounded, and checked before it is parsed.
    private static func fileSnapshot(path: String, required: Bool) throws -> (any ConfigSnapshot)? {
        guard let bytes = try RegularFile.read(path, what: "config file", maxBytes: maxConfigBytes, kind: .usage) else {
            if required { throw AppError(.usage, "config file \(path) does not exist") }
            return nil
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw AppError(.usage, "config file \(path) is not UTF-8 text") }
        do {
            if path.hasSuffix(".json") {
                return try JSONSnapshot(data: bytes.span.bytes, providerName: path, parsingOptions: .default)
            }
            if let problem = ConfigFileGuard.problem(inYAML: text) { throw AppError(.usage, "config file \(path) \(problem)") }
            return try YAMLSnapshot(data: bytes.span.bytes, providerName: path, parsingOptions: .default)
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(.usage, "config file \(path) cannot be read: \(String(describing: error).prefix(200))")
        }
    }

    /// The value of `key` in one source, as text, whatever type the source wrote it as.
    private static func lookup(_ key: AbsoluteConfigKey, in source: any ConfigSnapshot) -> String? {
        for type in [ConfigType.string, .int, .double, .bool, .stringArray] {
            guard let content = try? source.value(forKey: key, type: type).value?.content else { continue }
            switch content {
            case .string(let value): return value
            case .int(let value): return String(value)
            case .double(let value): return String(value)
            case .bool(let value): return String(value)
            case .stringArray(let values): return values.joined(separator: ",")
            default: continue
            }
        }
        return nil
    }
}
