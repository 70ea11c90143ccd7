import Synchronization

/// Runs the work handed to it one piece at a time, in the order it came, each caller waiting for
/// its turn. A store's writes whose size a caller controls (a group of 1,000 people, a change
/// of a message many reacted to) take turns through one, so that however many arrive together,
/// at most one of them waits in the writer's queue ahead of everyone's sends.
public final class OneAtATime: Sendable {
    private let state = Mutex<(running: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// A line with no one in it.
    public init() {}

    /// Waits for the turns of those who came before, then runs `work`.
    /// - Throws: what `work` throws; `CancellationError` when the caller was cancelled while waiting.
    public func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                guard state.running else {
                    state.running = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
        defer { next() }
        try Task.checkCancellation()
        return try await work()
    }

    /// Hands the turn to the next in line, if anyone waits.
    private func next() {
        let following = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.running = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        following?.resume()
    }
}
