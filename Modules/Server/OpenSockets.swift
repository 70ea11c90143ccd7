import Kernel
import ServiceLifecycle
import Synchronization

/// The open events sockets, and the service that watches them: every `sessionCheck` it ends
/// those whose session has ended or whose client has stopped reading (one task for all
/// sockets, not one each). When the server shuts down it closes them first: it runs after the HTTP server in
/// the service group, so it is told to stop before it, and closes every socket with "going
/// away" while the server still serves; the server then waits only for requests in flight.
final class OpenSockets: Service, Sendable {
    /// An open socket, as the watcher sees it.
    struct Socket: Sendable {
        /// Whose it is.
        let owner: UserID
        /// Its session.
        let caller: Caller
        /// Ends it, saying why.
        let end: @Sendable (SocketEnding) -> Void
        /// Whether its writer has waited too long for the client.
        let isStalled: @Sendable () -> Bool
    }

    private struct Registry {
        var sockets: [Int: Socket] = [:]
        var next = 0
        var emptied: [CheckedContinuation<Void, Never>] = []
        /// Shutting down: a socket that opens now is closed at once.
        var closing = false
    }

    private let registry = Mutex(Registry())
    private let sessionCheck: Duration

    /// Looks at every socket's session and writer every `sessionCheck`.
    init(sessionCheck: Duration) { self.sessionCheck = sessionCheck }

    /// The open sockets of `user`.
    func count(of user: UserID) -> Int { registry.withLock { registry in registry.sockets.values.count { $0.owner == user } } }

    /// Registers a socket; returns the key to remove it with.
    func add(_ socket: Socket) -> Int {
        let (key, closing) = registry.withLock { registry in
            registry.next += 1
            registry.sockets[registry.next] = socket
            return (registry.next, registry.closing)
        }
        if closing { socket.end(.shuttingDown) }
        return key
    }

    /// Removes a socket that has ended.
    func remove(_ key: Int) {
        let waiting = registry.withLock { registry -> [CheckedContinuation<Void, Never>] in
            registry.sockets[key] = nil
            guard registry.sockets.isEmpty else { return [] }
            defer { registry.emptied = [] }
            return registry.emptied
        }
        waiting.forEach { $0.resume() }
    }

    /// Waits for the shutdown, closes every socket and returns once all have ended (or after
    /// two seconds, when a client does not answer the close).
    func run() async throws {
        let watcher = Task { await watch() }
        try? await gracefulShutdown()
        watcher.cancel()
        let closers = registry.withLock { registry in
            registry.closing = true
            return registry.sockets.values.map(\.end)
        }
        closers.forEach { $0(.shuttingDown) }
        let timer = Task {
            try await Task.sleep(for: .seconds(2))
            self.wakeWaiters()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { continuation in
            let done = registry.withLock { registry -> Bool in
                if registry.sockets.isEmpty { return true }
                registry.emptied.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Until cancelled: ends the sockets whose session has ended (revoked, expired) and those
    /// whose client has stopped reading.
    private func watch() async {
        while (try? await Task.sleep(for: sessionCheck)) != nil {
            for socket in registry.withLock({ Array($0.sockets.values) }) {
                if socket.isStalled() { socket.end(.tooSlow) }
                do {
                    _ = try await socket.caller.id()
                } catch let error as AppError where error.kind == .notSignedIn {
                    socket.end(.sessionEnded)
                } catch {}
            }
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
