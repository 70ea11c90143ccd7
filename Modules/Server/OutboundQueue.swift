import NIOCore
import Synchronization

/// One connection's frames on their way to its writer, bounded in bytes. Whoever adds a frame
/// to a full queue waits for the writer (a reader catching up is paced by its own socket), but
/// only so long: a client that has not made room in time is too slow, and the caller ends it.
final class OutboundQueue: Sendable {
    private struct State {
        var frames = CircularBuffer<String>()
        var bytes = 0
        var finished = false
        /// The writer, waiting for a frame.
        var reader: CheckedContinuation<String?, Never>?
        /// Those waiting for room, by ticket.
        var waiting: [Int: CheckedContinuation<Bool, Never>] = [:]
        /// Tickets whose time ran out before they began to wait.
        var expired: Set<Int> = []
        var nextTicket = 0
    }

    private let state = Mutex(State())
    private let limit: Int

    /// A queue holding at most `limit` bytes of frames (a larger frame alone is let in).
    init(limit: Int) { self.limit = limit }

    /// Adds `frame`, first waiting up to `patience` for room. Returns false when there was no
    /// room in time or the queue was finished; the frame is then not added.
    func push(_ frame: String, patience: Duration) async -> Bool {
        let size = frame.utf8.count
        while true {
            let outcome: Bool? = state.withLock { state in
                if state.finished { return false }
                guard state.bytes == 0 || state.bytes + size <= limit else { return nil }
                if let reader = state.reader {
                    state.reader = nil
                    reader.resume(returning: frame)
                } else {
                    state.frames.append(frame)
                    state.bytes += size
                }
                return true
            }
            if let outcome { return outcome }
            guard await waitForRoom(patience: patience) else { return false }
        }
    }

    /// The next frame, once there is one; `nil` once finished and empty.
    func next() async -> String? {
        await withCheckedContinuation { continuation in
            let ready: (frame: String?, waiters: [CheckedContinuation<Bool, Never>])? = state.withLock { state in
                if let frame = state.frames.popFirst() {
                    state.bytes -= frame.utf8.count
                    defer { state.waiting = [:] }
                    return (frame, Array(state.waiting.values))
                }
                if state.finished { return (nil, []) }
                state.reader = continuation
                return nil
            }
            guard let ready else { return }
            ready.waiters.forEach { $0.resume(returning: true) }
            continuation.resume(returning: ready.frame)
        }
    }

    /// Ends the queue: the writer gets what is queued, then `nil`; waiting and later pushes fail.
    func finish() {
        let (reader, waiters) = state.withLock { state in
            state.finished = true
            let reader = state.frames.isEmpty ? state.reader : nil
            if reader != nil { state.reader = nil }
            defer { state.waiting = [:] }
            return (reader, Array(state.waiting.values))
        }
        reader?.resume(returning: nil)
        waiters.forEach { $0.resume(returning: false) }
    }

    /// Waits until the writer takes a frame (true) or `patience` passes or the queue ends (false).
    private func waitForRoom(patience: Duration) async -> Bool {
        let ticket = state.withLock { state in
            defer { state.nextTicket += 1 }
            return state.nextTicket
        }
        let timer = Task {
            try await Task.sleep(for: patience)
            let waiter = state.withLock { state in
                guard let waiter = state.waiting.removeValue(forKey: ticket) else {
                    state.expired.insert(ticket)
                    return nil as CheckedContinuation<Bool, Never>?
                }
                return waiter
            }
            waiter?.resume(returning: false)
        }
        defer { timer.cancel() }
        let room = await withCheckedContinuation { continuation in
            let now: Bool? = state.withLock { state in
                if state.finished || state.expired.contains(ticket) { return false }
                if state.bytes == 0 { return true }
                state.waiting[ticket] = continuation
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
        state.withLock { _ = $0.expired.remove(ticket) }
        return room
    }
}
