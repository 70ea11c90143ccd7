import Configuration
import Kernel

/// Loads a `SettingTable`'s settings from, in order of precedence: command-line options, the
/// environment, a config file (YAML, or JSON when its name ends in `.json`), and the defaults.
/// Parsing of the environment and of files is swift-configuration's; this adds each value's
/// source and the checks that name the key of a bad value. One mechanism for both executables.
public enum SettingsLoader {
    /// Loads the settings of `table`.
    /// - Parameters:
    ///   - commandLine: keys set by command-line options.
    ///   - configFile: a file asked for (`--config`); when missing there, the table's variable
    ///     may name one; when neither does, `defaultConfigFile` is read if it exists.
    ///   - environment: the process environment.
    /// - Throws: `AppError(.usage)` naming the key or file that is wrong.
    public static func load(
        _ table: SettingTable, commandLine: [String: String], configFile: String?, defaultConfigFile: String? = nil,
        environment: [String: String]
    ) throws -> LoadedSettings {
        var sources: [(name: String, snapshot: any ConfigSnapshot)] = [
            (
                "command line",
                InMemoryProvider(
                    name: "command line",
                    values: commandLine.reduce(into: [:]) { values, pair in
                        values[AbsoluteConfigKey(pair.key.split(separator: ".").map(String.init))] = ConfigValue(.string(pair.value), isSecret: false)
                    }
                ).snapshot()
            ),
            (
                "environment",
                EnvironmentVariablesProvider(
                    environmentVariables: environment.reduce(into: [:]) { result, pair in
                        if pair.key.hasPrefix(table.environmentPrefix), pair.key != table.configFileVariable,
                            !table.otherPrefixes.contains(where: pair.key.hasPrefix)
                        {
                            result[String(pair.key.dropFirst(table.environmentPrefix.count))] = pair.value
                        }
                    }
                ).snapshot()
            ),
        ]
        let explicitFile = configFile ?? environment[table.configFileVariable]
        if let path = explicitFile ?? defaultConfigFile, let file = try fileSnapshot(path: path, required: explicitFile != nil) {
            sources.append((path, file))
        }
        var entries: [(key: SettingKey, entry: LoadedSettings.Entry)] = []
        for key in table.keys {
            let absolute = AbsoluteConfigKey(key.name.split(separator: ".").map(String.init))
            let found = sources.lazy.compactMap { source in lookup(absolute, in: source.snapshot).map { ($0, source.name) } }.first
            let entry =
                found.map { LoadedSettings.Entry(value: $0.0, source: $0.1) } ?? LoadedSettings.Entry(value: key.defaultValue, source: "default")
            if let value = entry.value, let problem = key.check(value) {
                throw AppError(.usage, "configuration key '\(key.name)' (from \(entry.source)): \(AppError.quoting(value)) \(problem)")
            }
            entries.append((key, entry))
        }
        return LoadedSettings(table: table, entries: entries, environment: environment)
    }

    /// Largest config file read.
    public static let maxConfigBytes = 65_536

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
