import Foundation

/// An executable's settings as loaded: each key's value and the source it came from.
public struct LoadedSettings: Sendable {
    /// A resolved value and where it came from.
    public struct Entry: Sendable, Equatable {
        /// The value, or `nil` when unset.
        public let value: String?
        /// `command line`, `environment`, the config file's path, or `default`.
        public let source: String

        /// An entry value.
        public init(value: String?, source: String) {
            self.value = value
            self.source = source
        }
    }

    /// The table they were loaded by.
    public let table: SettingTable
    /// Every key's entry, in the table's order.
    public let entries: [(key: SettingKey, entry: Entry)]
    /// The environment the process was started with.
    public let environment: [String: String]

    /// Settings as loaded from `entries`.
    public init(table: SettingTable, entries: [(key: SettingKey, entry: Entry)], environment: [String: String]) {
        self.table = table
        self.entries = entries
        self.environment = environment
    }

    /// Every key of `table` at its default.
    public init(defaultsOf table: SettingTable, environment: [String: String]) {
        self.init(table: table, entries: table.keys.map { ($0, Entry(value: $0.defaultValue, source: "default")) }, environment: environment)
    }

    /// The entry of `key`: its value (its default when no source sets it) and where that came from.
    public func entry(_ key: SettingKey) -> Entry {
        entries.first { $0.key == key }?.entry ?? Entry(value: key.defaultValue, source: "default")
    }

    /// The value of `key` (its default when no source sets it).
    public func value(_ key: SettingKey) -> String? { entry(key).value }

    /// The value of a key that has a default (empty for one that has none and is unset).
    public func string(_ key: SettingKey) -> String { value(key) ?? "" }

    /// The whole-number value of `key` (values are checked when loaded, so this cannot fail for
    /// keys that take numbers; 0 otherwise).
    public func int(_ key: SettingKey) -> Int { Int(value(key) ?? "") ?? 0 }

    /// `$variable/messageai` in `environment`, or `~/fallback/messageai` when the variable is
    /// unset or empty: where the XDG conventions keep a program's files (config, data, state).
    public static func xdgDirectory(_ variable: String, fallback: String, in environment: [String: String]) -> URL {
        if let base = environment[variable], !base.isEmpty {
            return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("messageai", isDirectory: true)
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(fallback).appendingPathComponent("messageai")
    }

    /// `xdgDirectory(_:fallback:in:)` in the environment the settings were loaded from.
    public func xdgDirectory(_ variable: String, fallback: String) -> URL { Self.xdgDirectory(variable, fallback: fallback, in: environment) }
}
