import ArgumentParser
import Foundation

/// The goals of docs/performance.md's "Current figures" that the benchmarks can guard, each
/// stated once, and `--fail-past-goal SLACK`: a run whose median is past its goal by more than
/// SLACK times fails (exit status 1, one line on standard error naming the figure, the goal and
/// the slack). `.ci/run` runs `send`, `list`, `history` and `search` so (docs/performance.md,
/// "Guards in CI", says why the slack is 3).
enum Goal {
    /// Acknowledged sends, one process, one caller: at least this many a second.
    static let sendsPerSecond = 5_000.0
    /// The sorted list of 10,000 conversations with unread counts and unread mentions: at most this many ms.
    static let listMilliseconds = 50.0
    /// A page of 50 messages, the newest or an older one, whatever the conversation's size: at most this many ms.
    static let pageMilliseconds = 2.0
    /// A search's median over the index, whatever the store's size: at most this many ms.
    static let searchP50Milliseconds = 20.0
    /// A search's 99th percentile: at most this many ms.
    static let searchP99Milliseconds = 50.0

    /// `--fail-past-goal SLACK`, for the benchmarks that have a goal.
    struct Guard: ParsableArguments {
        @Option(
            name: .customLong("fail-past-goal"),
            help: "Fail (exit 1) when the median is past its goal (docs/performance.md) by more than this factor, e.g. 3.")
        var slack: Double?

        /// Fails when `measured` (a median) is above `goal` × slack.
        func atMost(_ what: String, _ measured: Double, goal: Double, unit: String) throws {
            guard let slack, measured > goal * slack else { return }
            try fail(
                "\(what) \(Stats.format(measured)) \(unit) is past the goal ≤ \(Stats.format(goal)) \(unit) × slack \(String(format: "%g", slack)) "
                    + "(fails above \(Stats.format(goal * slack)) \(unit))")
        }

        /// Fails when `measured` (a median) is below `goal` / slack.
        func atLeast(_ what: String, _ measured: Double, goal: Double, unit: String) throws {
            guard let slack, measured < goal / slack else { return }
            try fail(
                "\(what) \(Stats.format(measured, 0)) \(unit) is past the goal ≥ \(Stats.format(goal, 0)) \(unit) ÷ slack \(String(format: "%g", slack)) "
                    + "(fails below \(Stats.format(goal / slack, 0)) \(unit))")
        }

        private func fail(_ line: String) throws -> Never {
            FileHandle.standardError.write(Data("messageai-bench: FAILED: \(line)\n".utf8))
            throw ExitCode(1)
        }
    }
}
