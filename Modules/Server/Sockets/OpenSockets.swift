import Kernel
import Metrics
import ServiceGraph
import ServiceLifecycle
import Synchronization

/// The open events sockets, and the service that watches them (one task for all sockets, not
/// one each): every second it ends those whose client has stopped reading or answering and
/// pings the silent ones; it ends a socket at once when its session is ended through this
/// server (sign-out, password change), and re-checks each socket's session every
/// `sessionSweep` for sessions that expired or were revoked elsewhere. When the server shuts down it
/// closes them first: it runs after the HTTP server in the service group, so it is told to stop
/// before it, and closes every socket with "going away" while the server still serves; the
/// server then waits only for requests in flight.
final class OpenSockets: Service, Sendable {
    /// A place held for one of a user's sockets from its admission until its connection closes
    /// (or the upgrade is given up), so that no more than the limit are ever open, however many
    /// upgrade requests race.
    final class Reservation: Sendable {
        /// Whose place it is.
        let owner: UserID
        private let sockets: OpenSockets
        private let held = Mutex(true)

        fileprivate init(owner: UserID, sockets: OpenSockets) {
            self.owner = owner
            self.sockets = sockets
        }

        /// Gives the place back (once; later calls do nothing).
        func release() {
            guard
                held.withLock({ held in
                    defer { held = false }
                    return held
                })
            else { return }
            sockets.registry.withLock { registry in
                registry.perOwner[owner, default: 1] -= 1
                if registry.perOwner[owner] == 0 { registry.perOwner[owner] = nil }
            }
        }
    }

    private struct Registry {
        /// Each socket, and when its session was last checked.
        var sockets: [ObjectIdentifier: (socket: EventConnection, checked: ContinuousClock.Instant)] = [:]
        /// Places held, by user (`Reservation`).
        var perOwner: [UserID: Int] = [:]
        var emptied: [CheckedContinuation<Void, Never>] = []
        /// Shutting down: a socket that opens now is closed at once.
        var closing = false
    }

    private let registry = Mutex(Registry())
    /// How many sockets are open, for the process's metrics.
    private let openCount = Gauge(label: "messageai_sockets_open")
    private let sessionEnds: AsyncStream<SessionEnd>
    private let sessionSweep: Duration
    private let pingInterval: Duration
    /// Most frames a socket may have queued for its client before it counts as too slow.
    let queueFrames: Int
    /// How long the closing of the sockets is spread over when the server shuts down.
    static let drainSpread: Duration = .seconds(2)

    /// Watches sockets whose sessions end as `sessionEnds` tells, re-checking each session every
    /// `sessionSweep` and pinging sockets silent for `pingInterval`; each may queue `queueFrames`.
    init(
        sessionEnds: AsyncStream<SessionEnd>, sessionSweep: Duration, pingInterval: Duration = EventSocketProtocol.pingInterval,
        queueFrames: Int = EventSocketProtocol.queueFrames
    ) {
        self.sessionEnds = sessionEnds
        self.sessionSweep = sessionSweep
        self.pingInterval = pingInterval
        self.queueFrames = queueFrames
    }

    /// Holds a place for one of `owner`'s sockets; `nil` when `limit` are held already.
    func reserve(for owner: UserID, limit: Int) -> Reservation? {
        registry.withLock { registry in
            guard registry.perOwner[owner, default: 0] < limit else { return nil }
            registry.perOwner[owner, default: 0] += 1
            return Reservation(owner: owner, sockets: self)
        }
    }

    /// Whether the server is shutting down: its sockets are being closed, new ones are not kept.
    var isDraining: Bool { registry.withLock { $0.closing } }

    /// Registers a socket (its place is held already) until `remove`.
    func add(_ socket: EventConnection) {
        let (closing, count) = registry.withLock { registry in
            registry.sockets[ObjectIdentifier(socket)] = (socket, .now)
            return (registry.closing, registry.sockets.count)
        }
        openCount.record(count)
        if closing { socket.end(.shuttingDown) }
    }

    /// Removes a socket that has closed.
    func remove(_ socket: EventConnection) {
        let (waiting, count) = registry.withLock { registry -> ([CheckedContinuation<Void, Never>], Int) in
            guard registry.sockets.removeValue(forKey: ObjectIdentifier(socket)) != nil else { return ([], registry.sockets.count) }
            guard registry.sockets.isEmpty else { return ([], registry.sockets.count) }
            defer { registry.emptied = [] }
            return (registry.emptied, 0)
        }
        openCount.record(count)
        waiting.forEach { $0.resume() }
    }

    /// Waits for the shutdown, then drains (`drain()`): when the server runs under a `Drain`,
    /// that has happened already, and only sockets opened since are left.
    func run() async throws {
        let watcher = Task { await watch() }
        let sessions = Task {
            for await end in sessionEnds {
                if end == .botTokens {
                    await Self.recheck(self.sockets { $0.actsForBot })
                } else {
                    self.sockets { end.ends(token: $0.caller.token, of: $0.owner) }.forEach { $0.end(.sessionEnded) }
                }
            }
        }
        try? await gracefulShutdown()
        watcher.cancel()
        sessions.cancel()
        await drain()
    }

    /// Says the server is draining (`isDraining`), closes every socket with "going away", a
    /// slice at a time over `drainSpread`, and returns once all have ended (or two seconds after
    /// the last is told, when a client does not answer the close).
    func drain() async {
        let open = registry.withLock { registry in
            registry.closing = true
            return registry.sockets.values.map(\.socket)
        }
        let slices = min(open.count, 20)
        for slice in 0..<slices {
            stride(from: slice, to: open.count, by: slices).forEach { open[$0].end(.shuttingDown) }
            if slice < slices - 1 { try? await Task.sleep(for: Self.drainSpread / slices) }
        }
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

    /// The service that drains the sockets when the process is told to stop, before the HTTP
    /// server stops accepting: it comes after the application in the process's service group,
    /// which stops services last to first. (Inside the application the server stops first.)
    struct Drain: Service {
        let sockets: OpenSockets

        func run() async throws {
            try? await gracefulShutdown()
            await sockets.drain()
        }
    }

    /// Until cancelled, every second: ends the sockets whose client has stopped reading or
    /// answers no ping, pings the silent ones, and re-checks the sessions not checked for
    /// `sessionSweep` (each socket's on its own schedule, so the checks spread over time), a
    /// bot's every `botSweep`: no other instance tells of a revoked token, and few sockets are bots'.
    private func watch() async {
        while (try? await Task.sleep(for: .seconds(1))) != nil {
            let now = ContinuousClock.now
            sockets { _ in true }.forEach { $0.check(at: now, pingInterval: pingInterval) }
            let due = registry.withLock { registry in
                registry.sockets.filter { now - $0.value.checked >= ($0.value.socket.actsForBot ? Self.botSweep : sessionSweep) }.map { key, entry in
                    registry.sockets[key]?.checked = now
                    return entry.socket
                }
            }
            await Self.recheck(due)
        }
    }

    /// How often a bot's socket checks its token: as often as an instance trusts a check.
    static let botSweep: Duration = .seconds(2)

    /// Checks the session (or token) of each of `sockets` again, ending those refused.
    private static func recheck(_ sockets: [EventConnection]) async {
        for socket in sockets {
            do {
                _ = try await socket.caller.principal()
            } catch let error as AppError where error.kind == .notSignedIn {
                socket.end(.sessionEnded)
            } catch {}
        }
    }

    /// The open sockets for which `matching` is true.
    private func sockets(_ matching: (EventConnection) -> Bool) -> [EventConnection] {
        registry.withLock { $0.sockets.values.map(\.socket).filter(matching) }
    }

    private func wakeWaiters() {
        let waiting = registry.withLock { registry in
            defer { registry.emptied = [] }
            return registry.emptied
        }
        waiting.forEach { $0.resume() }
    }
}
