import Kernel
import PostgresNIO
import Synchronization

extension PGDatabase {
    /// The statements running on the database's connections, each with its connection, so that
    /// one whose connection closed under it fails instead of being waited for forever.
    ///
    /// postgres-nio (1.33) writes a statement to its connection without asking to hear of the
    /// write's failure: a statement written a moment after the connection closed (the database
    /// crashed) is dropped unanswered, and its caller would wait for it forever while holding a
    /// connection of the pool. A look twice a second fails each statement whose connection has
    /// closed; a statement on a connection still open is waited for as long as it takes.
    final class InFlightStatements: Sendable {
        private struct Waiting {
            let connection: PostgresConnection
            let fail: @Sendable () -> Void
        }

        private let waiting = Mutex<(next: Int, statements: [Int: Waiting])>((0, [:]))
        private let location: Location
        private let looker = Mutex<Task<Void, Never>?>(nil)

        /// How often the statements' connections are looked at.
        static let lookInterval = Duration.milliseconds(500)

        init(location: Location) { self.location = location }

        deinit { looker.withLock { $0?.cancel() } }

        /// Runs `statement` on `connection` and returns what it returns; fails it as
        /// `.unavailable` if the connection closes before it ends.
        func run<T: Sendable>(on connection: PostgresConnection, _ statement: @escaping @Sendable () async throws -> T) async throws -> T {
            let outcome = Outcome<T>()
            let unavailable = AppError(.unavailable, "PostgreSQL at \(location) closed the connection; try again")
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    outcome.await(continuation)
                    let id = watch(connection) { outcome.end(.failure(unavailable)) }
                    outcome.start { [self] in
                        let result: Result<T, any Error>
                        do { result = .success(try await statement()) } catch { result = .failure(error) }
                        forget(id)
                        outcome.end(result)
                    }
                }
            } onCancel: {
                outcome.cancel()
            }
        }

        /// One statement's end, told once to its waiting caller, whichever comes first: its result
        /// or its connection's close.
        private final class Outcome<T: Sendable>: Sendable {
            private let state = Mutex<(caller: CheckedContinuation<T, any Error>?, work: Task<Void, Never>?)>((nil, nil))

            func await(_ caller: CheckedContinuation<T, any Error>) { state.withLock { $0.caller = caller } }

            func start(_ work: @escaping @Sendable () async -> Void) { state.withLock { $0.work = Task(operation: work) } }

            func end(_ result: Result<T, any Error>) { state.withLock { $0.caller.take() }?.resume(with: result) }

            func cancel() { state.withLock { $0.work }?.cancel() }
        }

        /// Stops looking.
        func stop() { looker.withLock { $0?.cancel() } }

        private func watch(_ connection: PostgresConnection, fail: @escaping @Sendable () -> Void) -> Int {
            let id = waiting.withLock { waiting in
                defer { waiting.next += 1 }
                waiting.statements[waiting.next] = Waiting(connection: connection, fail: fail)
                return waiting.next
            }
            looker.withLock { task in
                if task == nil { task = Task { [weak self] in await self?.look() } }
            }
            return id
        }

        private func forget(_ id: Int) { _ = waiting.withLock { $0.statements.removeValue(forKey: id) } }

        /// Fails the statements whose connection closed, twice a second, for as long as the database is open.
        private func look() async {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.lookInterval)
                let lost = waiting.withLock { waiting in
                    let closed = waiting.statements.filter { $0.value.connection.isClosed }
                    for id in closed.keys { waiting.statements[id] = nil }
                    return closed.values.map(\.fail)
                }
                for fail in lost { fail() }
            }
        }
    }
}
