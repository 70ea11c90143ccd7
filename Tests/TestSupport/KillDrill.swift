import Kernel
import Synchronization

/// Kills a server with SIGKILL and starts it again (or whatever `crash` does: an instance of
/// several, the database) each time the count of acknowledged sends reaches one of the given
/// marks, while the clients go on: what a crash in the middle of traffic does to delivery.
public final class KillDrill: Sendable {
    private struct State {
        var acknowledged = 0
        var marks: [Int]
        var restarts: [Task<Void, any Error>] = []
        var longestPause = Duration.zero
    }

    private let crash: @Sendable (_ number: Int) async throws -> Void
    private let state: Mutex<State>

    /// A drill that kills `server` and starts it again when the `marks`-th sends have been acknowledged.
    public convenience init(server: ServerProcess, killingAt marks: [Int]) {
        self.init(killingAt: marks) { _ in
            await server.kill9()
            try await server.restart()
        }
    }

    /// A drill that runs `crash` (given its number, from 0) in the background when the
    /// `marks`-th sends have been acknowledged.
    public init(killingAt marks: [Int], crash: @escaping @Sendable (_ number: Int) async throws -> Void) {
        self.crash = crash
        state = Mutex(State(marks: marks.sorted()))
    }

    /// Notes one acknowledged send, `pause` after the same sender's one before; at a mark, starts
    /// the crash in the background.
    private func acknowledged(after pause: Duration) {
        let crash = crash
        state.withLock { state in
            state.acknowledged += 1
            state.longestPause = max(state.longestPause, pause)
            guard let mark = state.marks.first, state.acknowledged >= mark else { return }
            state.marks.removeFirst()
            let number = state.restarts.count
            state.restarts.append(Task.detached { try await crash(number) })
        }
    }

    /// The longest time a sender waited between two of its acknowledged sends: how long a client
    /// went unserved at worst.
    public var longestPause: Duration { state.withLock { $0.longestPause } }

    /// How many sends were acknowledged.
    public var acknowledgedCount: Int { state.withLock { $0.acknowledged } }

    /// Waits for the restarts begun so far; returns how many kills there were.
    public func finish() async throws -> Int {
        let restarts = state.withLock { $0.restarts }
        for restart in restarts { try await restart.value }
        return restarts.count
    }

    /// Sends `count` messages into `conversation` one after another, each with a new id through
    /// `send` (given the id and the message's number) until acknowledged, noting each in `ledger`
    /// and in this drill; with `pace`, the `n`-th is not sent before `start + n × pace` (a
    /// sender held up by a crash catches up after it). Returns the number of attempts.
    public func send(
        _ count: Int, in conversation: ConversationID, noting ledger: DeliveryLedger,
        pace: (start: ContinuousClock.Instant, interval: Duration)? = nil,
        _ send: (MessageID, Int) async throws -> Void
    ) async throws -> Int {
        var attempts = 0
        var previous = ContinuousClock.now
        for index in 0..<count {
            if let pace { try await Task.sleep(until: pace.start + pace.interval * index) }
            let id = MessageID.random()
            attempts += try await Self.untilAcknowledged { try await send(id, index) }
            ledger.acknowledged(id, in: conversation)
            let now = ContinuousClock.now
            acknowledged(after: now - max(previous, pace.map { $0.start + $0.interval * index } ?? previous))
            previous = now
        }
        return attempts
    }

    /// Runs `send` until it succeeds, waiting `Backoff` between attempts while the server is
    /// unreachable; any other error is thrown. Returns the number of attempts.
    private static func untilAcknowledged(_ send: () async throws -> Void) async throws -> Int {
        var failures = 0
        while true {
            do {
                try await send()
                return failures + 1
            } catch let error as AppError where error.kind == .unavailable {
                failures += 1
                try await Task.sleep(for: min(Backoff.delay(afterFailures: failures), .seconds(1)))
            }
        }
    }
}
