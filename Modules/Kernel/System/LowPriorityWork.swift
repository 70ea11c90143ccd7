import Foundation
import Synchronization

/// Threads of lower priority (nice 10) for work whose length a caller controls, such as checking
/// search candidates against their text. Sends and live delivery run on Swift's cooperative
/// threads and NIO's loops at normal priority, so the kernel gives them a core first however
/// much of this work waits; the work still gets about a tenth of a busy core.
public final class LowPriorityWork: Sendable {
    /// One thread a core, made on first use.
    public static let shared = LowPriorityWork(threads: ProcessInfo.processInfo.activeProcessorCount)

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let ready = DispatchSemaphore(value: 0)

    private init(threads: Int) {
        for index in 0..<max(1, threads) {
            let thread = Thread { [self] in serve() }
            thread.name = "messageai.low-priority.\(index)"
            thread.start()
        }
    }

    /// Runs `work` on one of the threads and returns what it returns.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            jobs.withLock { $0.append { continuation.resume(with: Result { try work() }) } }
            ready.signal()
        }
    }

    /// A thread's life: lower its own priority, then take jobs in the order they came.
    private func serve() {
        Self.lowerPriority()
        while true {
            ready.wait()
            guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            job()
        }
    }

    /// Sets the calling thread's nice value to 10 (Linux keeps one per thread); elsewhere, nothing.
    private static func lowerPriority() {
        #if os(Linux)
            var link = [CChar](repeating: 0, count: 64)
            let length = readlink("/proc/thread-self", &link, link.count - 1)
            guard length > 0, let thread = String(cString: link).split(separator: "/").last.flatMap({ id_t($0) }) else { return }
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread, 10)
        #endif
    }
}
