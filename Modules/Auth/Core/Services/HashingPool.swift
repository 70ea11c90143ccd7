import Dispatch
import Foundation
import Kernel
import Synchronization

/// A few threads of its own for password hashing, with a bounded queue: bcrypt takes a core
/// for a quarter of a second per check, so run on Swift's shared threads a burst of sign-ins
/// would hold up everything else (message delivery too). Here they wait their turn, and past
/// the queue's limit they are refused as "busy" instead of piling up.
public final class HashingPool: Sendable {
    /// Jobs that may wait beside the running ones before new ones are refused.
    public let queueLimit: Int
    private let workers: [DispatchQueue]
    private let state = Mutex((admitted: 0, next: 0))

    /// A pool of `threads` threads (default: one less than the cores, at least one).
    public init(threads: Int = max(1, ProcessInfo.processInfo.activeProcessorCount - 1), queueLimit: Int = 64) {
        workers = (0..<max(1, threads)).map { DispatchQueue(label: "messageai.hashing.\($0)") }
        self.queueLimit = queueLimit
    }

    /// Jobs admitted and not finished: running or waiting.
    public var load: Int { state.withLock { $0.admitted } }

    /// Runs `job` on one of the pool's threads.
    /// - Throws: `AppError(.unavailable)` when `queueLimit` jobs already wait.
    public func run<Result: Sendable>(_ job: @escaping @Sendable () -> Result) async throws -> Result {
        let worker = try state.withLock { state -> DispatchQueue in
            guard state.admitted < workers.count + queueLimit else {
                throw AppError(.unavailable, "busy checking passwords; try again in a moment")
            }
            state.admitted += 1
            state.next = (state.next + 1) % workers.count
            return workers[state.next]
        }
        return await withCheckedContinuation { continuation in
            worker.async {
                let result = job()
                self.state.withLock { $0.admitted -= 1 }
                continuation.resume(returning: result)
            }
        }
    }
}
