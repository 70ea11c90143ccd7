import Synchronization

/// A store's notes of ended sessions read once a second, until stopped: what lets a server close
/// the sockets of sessions another process ended (an operator's suspension, an instance's
/// sign-out) within about a second, on PostgreSQL (`PostgresSessionEnds`) and on a SQLite file
/// (`SQLSessionEnds`).
final class SessionEndWatch: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Reads `newlyEnded` once a second, telling `ended` of each digest it gives; a store that
    /// cannot be read now is read again the next second.
    func start(_ newlyEnded: @escaping @Sendable () async throws -> [String], ended: @escaping @Sendable (String) -> Void) {
        let watcher = Task {
            while (try? await Task.sleep(for: .seconds(1))) != nil {
                guard let digests = try? await newlyEnded() else { continue }
                digests.forEach(ended)
            }
        }
        task.withLock { $0 = watcher }
    }

    /// Stops reading.
    func stop() { task.withLock { $0?.cancel() } }
}
