import Kernel
import ServiceLifecycle
import Synchronization

/// The open events sockets, and the service that watches them: every `sessionCheck` it ends
/// those whose session has ended or whose client has stopped reading or answering, and pings
/// the silent ones (one task for all sockets, not one each). When the server shuts down it
/// closes them first: it runs after the HTTP server in the service group, so it is told to stop
/// before it, and closes every socket with "going away" while the server still serves; the
/// server then waits only for requests in flight.
final class OpenSockets: Service, Sendable {
    private struct Registry {
        var sockets: [ObjectIdentifier: EventConnection] = [:]
        var perOwner: [UserID: Int] = [:]
        var emptied: [CheckedContinuation<Void, Never>] = []
        /// Shutting down: a socket that opens now is closed at once.
        var closing = false
    }

    private let registry = Mutex(Registry())
    private let sessionCheck: Duration
    private let pingInterval: Duration

    /// Looks at every socket every `sessionCheck`, pinging those silent for `pingInterval`.
    init(sessionCheck: Duration, pingInterval: Duration = EventSocketProtocol.pingInterval) {
        self.sessionCheck = sessionCheck
        self.pingInterval = pingInterval
    }

    /// The open sockets of `user`.
    func count(of user: UserID) -> Int { registry.withLock { $0.perOwner[user] ?? 0 } }

    /// Registers a socket until `remove`.
    func add(_ socket: EventConnection) {
        let closing = registry.withLock { registry in
            registry.sockets[ObjectIdentifier(socket)] = socket
            registry.perOwner[socket.owner, default: 0] += 1
            return registry.closing
        }
        if closing { socket.end(.shuttingDown) }
    }

    /// Removes a socket that has closed.
    func remove(_ socket: EventConnection) {
        let waiting = registry.withLock { registry -> [CheckedContinuation<Void, Never>] in
            guard registry.sockets.removeValue(forKey: ObjectIdentifier(socket)) != nil else { return [] }
            registry.perOwner[socket.owner, default: 1] -= 1
            if registry.perOwner[socket.owner] == 0 { registry.perOwner[socket.owner] = nil }
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
        let open = registry.withLock { registry in
            registry.closing = true
            return Array(registry.sockets.values)
        }
        open.forEach { $0.end(.shuttingDown) }
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

    /// Until cancelled: ends the sockets whose session has ended (revoked, expired), whose
    /// client has stopped reading or answers no ping; pings the silent ones.
    private func watch() async {
        while (try? await Task.sleep(for: sessionCheck)) != nil {
            let now = ContinuousClock.now
            for socket in registry.withLock({ Array($0.sockets.values) }) {
                socket.check(at: now, pingInterval: pingInterval)
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
