import ArgumentParser

/// Options every command accepts, before or after the subcommand.
public struct GlobalOptions: ParsableArguments, Sendable {
    /// Creates empty options (for parsing).
    public init() {}

    @Option(help: "Backend: memory, sqlite or remote (config key 'backend').")
    public var backend: String?

    @Option(help: "Server of the remote backend, http://host:port or https://host:port (config key 'remote.url').")
    public var server: String?

    @Option(help: "Configuration file (YAML or JSON). Default: $XDG_CONFIG_HOME/messageai/config.yaml if present.")
    public var config: String?

    @Option(help: "Identity profile; each profile keeps its own session (config key 'profile').")
    public var profile: String?

    @Option(help: "Comma-separated features to enable (config key 'features').")
    public var features: String?

    @Flag(help: "Print one JSON object per line instead of text.")
    public var json = false

    @Flag(help: "Act as a bot: read its API token from the first line of standard input (or set MESSAGEAI_TOKEN).")
    public var tokenStdin = false

    /// Options given on the command line, as configuration keys and values.
    public var configurationOverrides: [String: String] {
        var values: [String: String] = [:]
        values["backend"] = backend
        values["profile"] = profile
        values["features"] = features
        values["remote.url"] = server
        return values
    }

    /// The names of the options, so that the launcher can accept them before the subcommand.
    public static let valueOptionNames: Set<String> = ["--backend", "--server", "--config", "--profile", "--features"]
    /// The flags among the options.
    public static let flagNames: Set<String> = ["--json", "--token-stdin"]
}
