import ArgumentParser
import Kernel

/// A CLI subcommand that a feature plugs in. The launcher parses it, builds the container from
/// its global options and calls `run(in:)`.
public protocol FeatureCommand: AsyncParsableCommand {
    /// The options every command accepts.
    var global: GlobalOptions { get }
    /// Runs the command against the container.
    @MainActor func run(in context: CLIContext) async throws
}

extension FeatureCommand {
    /// Commands run through `run(in:)`; the launcher never calls this.
    public func run() async throws {
        throw AppError(.internal, "\(Self._commandName) must be run by the messageai launcher")
    }
}
