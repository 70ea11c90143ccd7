import Auth
import Dispatch
import Kernel
import Testing

/// Password hashing runs on the pool's own threads, and a full queue refuses instead of growing.
@Suite("Hashing pool", .timeLimit(.minutes(1)))
struct HashingPoolTests {
    @Test("jobs that block do not hold Swift's shared threads")
    func ownThreads() async throws {
        let pool = HashingPool(threads: 3, queueLimit: 0)
        let gate = DispatchSemaphore(value: 0)
        // Three jobs block until a Swift task opens the gate; on the (two-thread) cooperative
        // pool they would leave it no thread to run on.
        let jobs = (0..<3).map { index in Task { try await pool.run { gate.wait(); return index } } }
        let opener = Task {
            for _ in 0..<3 { gate.signal() }
        }
        await opener.value
        var finished: [Int] = []
        for job in jobs { finished.append(try await job.value) }
        #expect(finished == [0, 1, 2])
    }

    @Test("past the queue's limit a job is refused as busy; the admitted ones finish")
    func boundedQueue() async throws {
        let pool = HashingPool(threads: 1, queueLimit: 1)
        let started = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0)
        let running = Task { try await pool.run { started.signal(); gate.wait(); return "running" } }
        await withCheckedContinuation { continuation in DispatchQueue.global().async { started.wait(); continuation.resume() } }
        let waiting = Task { try await pool.run { "waiting" } }
        while pool.load < 2 { await Task.yield() }
        await #expect(throws: AppError(.unavailable, "busy checking passwords; try again in a moment")) { try await pool.run { "third" } }
        gate.signal()
        #expect(try await running.value == "running")
        #expect(try await waiting.value == "waiting")
    }
}
