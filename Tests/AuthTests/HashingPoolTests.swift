import Auth
import Dispatch
import Foundation
import Kernel
import Testing

/// Password hashing runs on the pool's own threads, and a full queue refuses instead of growing.
@Suite("Hashing pool", .timeLimit(.minutes(1)))
struct HashingPoolTests {
    @Test("jobs that block do not hold Swift's shared threads")
    func ownThreads() async throws {
        // One more blocking job than Swift's shared pool has threads (one per core): on that
        // pool they would leave the task that opens the gate no thread, and the test would stop
        // at its time limit, on a machine of any size.
        let count = ProcessInfo.processInfo.activeProcessorCount + 1
        let pool = HashingPool(threads: count, queueLimit: 0)
        let gate = DispatchSemaphore(value: 0)
        let jobs = (0..<count).map { index in
            Task {
                try await pool.run {
                    gate.wait()
                    return index
                }
            }
        }
        let opener = Task {
            for _ in 0..<count { gate.signal() }
        }
        await opener.value
        var finished: [Int] = []
        for job in jobs { finished.append(try await job.value) }
        #expect(finished == Array(0..<count))
    }

    @Test("past the queue's limit a job is refused as busy; the admitted ones finish")
    func boundedQueue() async throws {
        let pool = HashingPool(threads: 1, queueLimit: 1)
        let started = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0)
        let running = Task {
            try await pool.run {
                started.signal()
                gate.wait()
                return "running"
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                started.wait()
                continuation.resume()
            }
        }
        let waiting = Task { try await pool.run { "waiting" } }
        while pool.load < 2 { await Task.yield() }
        await #expect(throws: AppError(.unavailable, "busy checking passwords; try again in a moment")) { try await pool.run { "third" } }
        gate.signal()
        #expect(try await running.value == "running")
        #expect(try await waiting.value == "waiting")
    }
}
