import ArgumentParser

/// A feature's CLI views: the subcommands it adds to `messageai`.
public protocol CLIPlugin {
    /// The feature's name in the `features` configuration key (lower case).
    static var featureName: String { get }
    /// Its top-level subcommands (groups may nest `FeatureCommand`s).
    static var commands: [any ParsableCommand.Type] { get }
}
