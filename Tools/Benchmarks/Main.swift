import ArgumentParser
import ServiceGraph

/// `swift run -c release messageai-bench <benchmark>`: the SQLite backend's and the server's figures, measured.
/// Each benchmark runs several times and prints medians; see the README's "Performance".
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "messageai-bench",
        abstract: "Measure the SQLite backend, the server and the scaled-out server.",
        subcommands: [
            SendBench.self, HistoryBench.self, EditBench.self, ListBench.self, StorageBench.self, StartupBench.self,
            LiveBench.self, FanOutBench.self, ConcurrentBench.self, KillBench.self, ServerBench.self, GaplessBench.self, SearchBench.self,
            SearchHitBench.self, PurgeBench.self, RetentionBench.self, MentionBench.self, TUIBench.self, FileStorageBench.self,
            FileTransferBench.self, AgedStoreBench.self, ChildProcess.self,
        ]
    )

    /// Tunes the allocator as `messageai` and `messageai-server` do, so that what is measured in
    /// this process is what they run, then runs the command.
    static func main() async {
        MemoryTuning.keepFreedMemory()
        await main(nil)
    }
}
