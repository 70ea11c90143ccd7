import Kernel
import Synchronization
import Testing

@Suite("One at a time", .timeLimit(.minutes(1)))
struct OneAtATimeTests {
    @Test("work runs one piece at a time, in the order it came; a caller cancelled while waiting does not run")
    func turns() async throws {
        let line = OneAtATime()
        let log = Log()
        let (held, hold) = AsyncStream.makeStream(of: Void.self)
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        // The first holds its turn until told to end.
        let first = Task {
            try await line.run {
                log.lines.withLock { $0.append("first starts") }
                start.yield()
                for await _ in held { break }
                log.lines.withLock { $0.append("first ends") }
            }
        }
        for await _ in started { break }
        let waiters = (1...3).map { index in
            Task {
                log.lines.withLock { $0.append("asks \(index)") }
                try await line.run { log.lines.withLock { $0.append("runs \(index)") } }
            }
        }
        let cancelled = Task {
            log.lines.withLock { $0.append("asks 4") }
            try await line.run { log.lines.withLock { $0.append("runs 4") } }
        }
        // Everyone is in line while the first still holds its turn.
        while log.lines.withLock({ $0.count(where: { $0.hasPrefix("asks") }) }) < 4 { await Task.yield() }
        cancelled.cancel()
        hold.yield()
        try await first.value
        for waiter in waiters { try await waiter.value }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        let order = log.lines.withLock { $0 }
        let asked = order.filter { $0.hasPrefix("asks") && $0 != "asks 4" }.map { $0.dropFirst(5) }
        #expect(order.firstIndex(of: "first ends").map { order[..<$0].allSatisfy { !$0.hasPrefix("runs") } } == true, "\(order)")
        #expect(order.filter { $0.hasPrefix("runs") }.map { $0.dropFirst(5) } == asked, "\(order)")
    }

    /// What happened, in order.
    final class Log: Sendable {
        let lines = Mutex<[String]>([])
    }
}
