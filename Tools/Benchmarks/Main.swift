import ArgumentParser

/// `swift run -c release messageai-bench <benchmark>`: the SQLite backend's and the server's figures, measured.
/// Each benchmark runs several times and prints medians; see the README's "Performance".
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "messageai-bench",
        abstract: "Measure the SQLite backend.",
        subcommands: [SendBench.self, HistoryBench.self, ListBench.self, StorageBench.self, StartupBench.self,
                      LiveBench.self, FanOutBench.self, ConcurrentBench.self, KillBench.self, ServerBench.self, ChildProcess.self]
    )
}
