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

    /// Notes one acknowledged send; at a mark, starts the crash in the background.
    private func acknowledged() {
        let crash = crash
        state.withLock { state in
            state.acknowledged += 1
            guard let mark = state.marks.first, state.acknowledged >= mark else { return }
            state.marks.removeFirst()
            let number = state.restarts.count
            state.restarts.append(Task.detached { try await crash(number) })
        }
    }

    /// Waits for the restarts begun so far; returns how many kills there were.
    public func finish() async throws -> Int {
        let restarts = state.withLock { $0.restarts }
        for restart in restarts { try await restart.value }
        return restarts.count
    }

    /// Sends `count` messages into `conversation` one after another, each with a new id through
    /// `send` (given the id and the message's number) until acknowledged, noting each in `ledger`
    /// and in this drill. Returns the number of attempts.
    public func send(_ count: Int, in conversation: ConversationID, noting ledger: DeliveryLedger,
                     _ send: (MessageID, Int) async throws -> Void) async throws -> Int {
        var attempts = 0
        for index in 0..<count {
            let id = MessageID.random()
            attempts += try await Self.untilAcknowledged { try await send(id, index) }
            ledger.acknowledged(id, in: conversation)
            acknowledged()
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
