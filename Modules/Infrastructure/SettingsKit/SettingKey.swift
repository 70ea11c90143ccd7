import Kernel

/// One setting of an executable: its dotted name, its default, what it means and its check,
/// stated once. The loader, `--help`, `messageai config` and the README's tables are made from
/// these; the environment variable comes from the name (`SettingTable`).
public struct SettingKey: Sendable, Equatable {
    /// Dotted key (`memory.latencyMs`): nested in a config file, `--memory-latency-ms` where it
    /// has an option, `<PREFIX>MEMORY_LATENCY_MS` in the environment.
    public let name: String
    /// The value when no source sets it (`nil`: unset).
    public let defaultValue: String?
    /// What it means, in a few words.
    public let summary: String
    /// Checks a value; returns the reason it is wrong, or `nil`.
    public let check: @Sendable (String) -> String?

    public static func == (lhs: SettingKey, rhs: SettingKey) -> Bool { lhs.name == rhs.name }

    /// A key; `defaultValue` and the range or choices of `check` appear in its help.
    public init(_ name: String, default defaultValue: String?, _ summary: String, check: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.name = name
        self.defaultValue = defaultValue
        self.summary = summary
        self.check = check
    }

    /// A whole number within `range`, with the range in its summary.
    public static func integer(_ name: String, default defaultValue: Int?, _ summary: String, in range: ClosedRange<Int>) -> SettingKey {
        SettingKey(name, default: defaultValue.map(String.init), "\(summary), \(range.lowerBound)–\(range.upperBound)") { value in
            Int(value).map(range.contains) == true ? nil : "must be a whole number from \(range.lowerBound) to \(range.upperBound)"
        }
    }

    /// One of `allowed`.
    public static func oneOf(_ name: String, default defaultValue: String, _ summary: String, _ allowed: [String]) -> SettingKey {
        SettingKey(name, default: defaultValue, "\(summary): \(allowed.joined(separator: ", "))") { value in
            allowed.contains(value) ? nil : "must be one of \(allowed.joined(separator: ", "))"
        }
    }

    /// Its summary and default, for `--help`.
    public var help: String { summary + (defaultValue.map { " (default \($0))" } ?? "") }
}
