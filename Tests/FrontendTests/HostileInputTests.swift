import Foundation
import GRDB
import Testing

/// Runs every case of `HostileInputCorpus` as a real `messageai` process against one prepared
/// world, one case at a time.
@Suite("Hostile input corpus", .serialized, .timeLimit(.minutes(5)))
struct HostileInputTests {
    @MainActor static let world = Task { try await HostileWorld.make() }

    @Test("the corpus has at least 100 cases, each named once")
    func size() {
        #expect(HostileInputCorpus.cases.count >= 100)
        #expect(Set(HostileInputCorpus.cases.map(\.name)).count == HostileInputCorpus.cases.count)
    }

    @Test("each bad input ends in time with its exit code, one line of error, no crash, and nothing changed", arguments: HostileInputCorpus.cases)
    func hostile(_ hostile: HostileCase) async throws {
        let world = try await Self.world.value
        let before = try world.snapshot()
        let started = ContinuousClock.now
        let run = try await world.run(hostile)
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .seconds(10), "took \(elapsed)")
        #expect(!run.timedOut, "killed after 15 s")
        #expect(run.signal == nil, "ended by signal \(run.signal ?? 0): a crash")
        #expect(run.status == hostile.exit, "exit \(run.status), stderr: \(run.stderr.prefix(300))")
        for trace in ["Fatal error", "Stack dump", "Current stack trace", "backtrace", "Illegal instruction"] {
            #expect(!run.stderr.contains(trace) && !run.stdout.contains(trace))
        }
        let errorLines = run.stderr.split(separator: "\n")
        if hostile.exit != 0 {
            #expect(errorLines.count == 1, "standard error: \(run.stderr.prefix(500))")
            #expect(errorLines.first.map { $0.count < 400 } ?? false, "an error line of \(errorLines.first?.count ?? 0) characters")
        }
        #expect(!run.stderr.unicodeScalars.contains { $0.value == 0x1B } && !run.stdout.unicodeScalars.contains { $0.value == 0x1B })
        if let mentions = hostile.mentions { #expect((run.stdout + run.stderr).contains(mentions), "expected to mention \(mentions)") }
        #expect(try world.snapshot() == before, "the database, a session or the history changed")
        try world.cleanUp(hostile)
    }
}
