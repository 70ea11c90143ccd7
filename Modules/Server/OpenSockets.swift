import Kernel
import ServiceLifecycle
import Synchronization

/// The open events sockets, and the service that closes them first when the server shuts down:
/// it runs after the HTTP server in the service group, so it is told to stop before it, and
/// closes every socket with "going away" while the server still serves; the server then waits
/// only for requests in flight.
final class OpenSockets: Service, Sendable {
    private struct Registry {
        var closers: [Int: @Sendable () -> Void] = [:]
        var owners: [Int: UserID] = [:]
        var next = 0
        var emptied: [CheckedContinuation<Void, Never>] = []
        /// Shutting down: a socket that opens now is closed at once.
        var closing = false
    }

    private let registry = Mutex(Registry())

    /// The open sockets of `user`.
    func count(of user: UserID) -> Int { registry.withLock { registry in registry.owners.values.count { $0 == user } } }

    /// Registers a socket of `user` and its way to close itself; returns the key to remove it with.
    func add(for user: UserID, _ close: @escaping @Sendable () -> Void) -> Int {
        let (key, closing) = registry.withLock { registry in
            registry.next += 1
            registry.closers[registry.next] = close
            registry.owners[registry.next] = user
            return (registry.next, registry.closing)
        }
        if closing { close() }
        return key
    }

    /// Removes a socket that has ended.
    func remove(_ key: Int) {
        let waiting = registry.withLock { registry -> [CheckedContinuation<Void, Never>] in
            registry.closers[key] = nil
            registry.owners[key] = nil
            guard registry.closers.isEmpty else { return [] }
            defer { registry.emptied = [] }
            return registry.emptied
        }
        waiting.forEach { $0.resume() }
    }

    /// Waits for the shutdown, closes every socket and returns once all have ended (or after
    /// two seconds, when a client does not answer the close).
    func run() async throws {
        try? await gracefulShutdown()
        let closers = registry.withLock { registry in
            registry.closing = true
            return Array(registry.closers.values)
        }
        closers.forEach { $0() }
        let timer = Task {
            try await Task.sleep(for: .seconds(2))
            self.wakeWaiters()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { continuation in
            let done = registry.withLock { registry -> Bool in
                if registry.closers.isEmpty { return true }
                registry.emptied.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    private func wakeWaiters() {
        let waiting = registry.withLock { registry in
            defer { registry.emptied = [] }
            return registry.emptied
        }
        waiting.forEach { $0.resume() }
    }
}
