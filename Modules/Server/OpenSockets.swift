import ServiceLifecycle
import Synchronization

/// The open events sockets, and the service that closes them first when the server shuts down:
/// it runs after the HTTP server in the service group, so it is told to stop before it, and
/// closes every socket with "going away" while the server still serves; the server then waits
/// only for requests in flight.
final class OpenSockets: Service, Sendable {
    private struct Registry {
        var closers: [Int: @Sendable () -> Void] = [:]
        var next = 0
        var emptied: [CheckedContinuation<Void, Never>] = []
    }

    private let registry = Mutex(Registry())

    /// Registers a socket's way to close itself; returns the key to remove it with.
    func add(_ close: @escaping @Sendable () -> Void) -> Int {
        registry.withLock { registry in
            registry.next += 1
            registry.closers[registry.next] = close
            return registry.next
        }
    }

    /// Removes a socket that has ended.
    func remove(_ key: Int) {
        let waiting = registry.withLock { registry -> [CheckedContinuation<Void, Never>] in
            registry.closers[key] = nil
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
        let closers = registry.withLock { Array($0.closers.values) }
        closers.forEach { $0() }
        await withTaskGroup { group in
            group.addTask { await self.untilEmpty() }
            group.addTask { try? await Task.sleep(for: .seconds(2)) }
            await group.next()
            group.cancelAll()
        }
    }

    private func untilEmpty() async {
        await withCheckedContinuation { continuation in
            let done = registry.withLock { registry -> Bool in
                if registry.closers.isEmpty { return true }
                registry.emptied.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}
