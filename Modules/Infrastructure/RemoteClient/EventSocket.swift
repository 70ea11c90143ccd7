import Foundation
import HummingbirdWSClient
import Kernel
import Logging
import NIOWebSocket

/// The one events socket of a session token in this process. Opens on the first subscription,
/// hands each frame to the subscribers of its type, and reconnects after a drop with full-jitter
/// exponential backoff (0.5 s doubling to 20 s), asking for what came after the last cursor it
/// received, so no message is missed or repeated; ends every stream when the server says the
/// session has ended. While it is open, requests (sends) can go over it rather than over HTTP.
/// Only a connection that delivered an event, or stayed open a minute, starts the backoff over:
/// one that fails on its first frames waits longer each time, and from the second failure in a
/// row its subscribers to `EventSocketProtocol.Trouble` are told why (and once it delivers again).
public actor EventSocket {
    /// A request sent on the socket: its reply, once come, or who waits for it.
    private enum Request {
        case sent(deadline: ContinuousClock.Instant)
        case answered(Data?)
        case waiting(CheckedContinuation<Data?, Never>, deadline: ContinuousClock.Instant)
    }

    private struct Subscriber {
        /// The frame types it takes; `nil` for every frame.
        let types: Set<String>?
        let continuation: AsyncStream<Data>.Continuation

        func takes(_ type: String) -> Bool { types?.contains(type) ?? true }
    }

    private enum State {
        case idle, connecting, ready
        case ended(AppError)
    }

    private let connection: RemoteConnection
    private let token: String
    private var subscribers: [Int: Subscriber] = [:]
    private var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    private var nextID = 0
    private var state = State.idle
    private var runner: Task<Void, Never>?
    /// The cursor of the last frame that had one: a reconnection resumes after it.
    private var lastCursor: EventCursor?
    /// Where frames to the server go while connected.
    private var outbound: WebSocketOutboundWriter?
    /// The requests waiting for their replies, by id.
    private var requests: [String: Request] = [:]
    /// Gives up on requests whose reply is late, while any waits.
    private var sweeper: Task<Void, Never>?
    /// When the current connection's ready frame came, if it did.
    private var readyAt: ContinuousClock.Instant?
    /// Whether the current connection delivered an event after its ready frame.
    private var delivered = false
    /// Whether the subscribers were told of a trouble not over yet.
    private var troubled = false

    init(connection: RemoteConnection, token: String) {
        self.connection = connection
        self.token = token
    }

    /// The frames whose `type` is one of `types` (every frame with `nil`), from the moment the
    /// server has subscribed the socket: this returns only then, so nothing stored afterwards is
    /// missed. Subscribing to `EventSocketProtocol.Ready.type` also yields a frame after each reconnection.
    /// `bufferingPolicy` is the buffer of frames the reader has not taken yet.
    /// - Throws: `.unavailable` when the server cannot be reached within the timeout;
    ///   `.notSignedIn` when the session has ended.
    public func subscribe(_ types: Set<String>?, bufferingPolicy: AsyncStream<Data>.Continuation.BufferingPolicy = .unbounded) async throws
        -> AsyncStream<Data>
    {
        if case .ended(let error) = state { throw error }
        let (stream, continuation) = AsyncStream<Data>.makeStream(bufferingPolicy: bufferingPolicy)
        let id = takeID()
        subscribers[id] = Subscriber(types: types, continuation: continuation)
        continuation.onTermination = { _ in Task { await self.unsubscribe(id) } }
        if runner == nil {
            state = .connecting
            runner = Task { await self.run() }
        }
        do {
            try await ready()
        } catch {
            unsubscribe(id)
            throw error
        }
        return stream
    }

    private func unsubscribe(_ id: Int) {
        subscribers[id] = nil
    }

    private func takeID() -> Int {
        nextID += 1
        return nextID
    }

    /// Returns once the socket is ready; fails after the connection's timeout.
    private func ready() async throws {
        switch state {
        case .ready: return
        case .ended(let error): throw error
        case .idle, .connecting: break
        }
        let id = takeID()
        let timeout = connection.timeout, server = connection.server
        let timer = Task {
            try await Task.sleep(for: timeout)
            self.fail(
                waiter: id,
                with: AppError(.unavailable, "cannot reach the server at \(server): no events socket within \(timeout.components.seconds) s"))
        }
        defer { timer.cancel() }
        try await withCheckedThrowingContinuation { waiters[id] = $0 }
    }

    /// Sends `text`, a request whose id is `id`, and returns the server's reply frame; `nil`
    /// when the socket is not ready, a request of that id is waiting already, the socket drops,
    /// or no reply comes within the connection's timeout. The caller then makes the request
    /// another way (HTTP), so it must be one that is safe to repeat, as a send with its id is.
    public func request(_ text: String, id: String) async -> Data? {
        guard case .ready = state, let outbound, requests[id] == nil else { return nil }
        let deadline = ContinuousClock.now + connection.timeout
        requests[id] = .sent(deadline: deadline)
        do {
            try await outbound.write(.text(text))
        } catch {
            answer(id, with: nil)
        }
        if case .answered(let reply) = requests[id] {
            requests[id] = nil
            return reply
        }
        if sweeper == nil { sweeper = Task { await self.sweep() } }
        return await withCheckedContinuation { requests[id] = .waiting($0, deadline: deadline) }
    }

    /// Hands `reply` to the request `id` (`nil`: it got none).
    private func answer(_ id: String, with reply: Data?) {
        switch requests[id] {
        case .sent: requests[id] = .answered(reply)
        case .waiting(let continuation, _):
            requests[id] = nil
            continuation.resume(returning: reply)
        case .answered, nil: break
        }
    }

    /// Every second, gives up on the requests past their deadline; ends when none waits.
    private func sweep() async {
        while !requests.isEmpty, (try? await Task.sleep(for: .seconds(1))) != nil {
            let now = ContinuousClock.now
            for (id, request) in requests {
                if case .waiting(_, let deadline) = request, deadline < now { answer(id, with: nil) }
            }
        }
        sweeper = nil
    }

    /// The socket is open and writes with `writer`, or (`nil`) is not: the requests waiting get
    /// no reply.
    private func connected(_ writer: WebSocketOutboundWriter?) {
        outbound = writer
        if writer == nil { requests.keys.forEach { answer($0, with: nil) } }
    }

    private func fail(waiter id: Int, with error: AppError) {
        waiters.removeValue(forKey: id)?.resume(throwing: error)
    }

    private func failWaiters(_ error: AppError) {
        let pending = waiters
        waiters = [:]
        pending.values.forEach { $0.resume(throwing: error) }
    }

    private func receive(_ text: String) {
        let data = Data(text.utf8)
        guard let header = try? WireFormat.decoder().decode(EventSocketProtocol.FrameHeader.self, from: data) else { return }
        if header.type == EventSocketProtocol.replyType {
            if let request = header.request { answer(request, with: data) }
            return
        }
        // A ready frame's cursor only starts a client that has none: when resuming, the frames
        // being replayed come before it.
        if let cursor = header.cursor, header.type != EventSocketProtocol.Ready.type || lastCursor == nil { lastCursor = cursor }
        if header.type == EventSocketProtocol.Reset.type {
            // The server did not know the cursor: what was missed is unknown, so readers reload.
            lastCursor = nil
            guard let resync = try? WireFormat.encoder().encode(EventSocketProtocol.Frame(EventSocketProtocol.Ready())) else { return }
            for subscriber in subscribers.values where subscriber.takes(EventSocketProtocol.Ready.type) { subscriber.continuation.yield(resync) }
            return
        }
        if header.type == EventSocketProtocol.Ready.type {
            let reconnected = { if case .ready = state { false } else { true } }()
            state = .ready
            readyAt = .now
            let pending = waiters
            waiters = [:]
            pending.values.forEach { $0.resume() }
            guard reconnected else { return }
        }
        if header.type != EventSocketProtocol.Ready.type && !delivered {
            delivered = true
            if troubled { tell(EventSocketProtocol.Trouble(reason: nil)) }
        }
        for subscriber in subscribers.values where subscriber.takes(header.type) { subscriber.continuation.yield(data) }
    }

    /// Hands `trouble` to the subscribers that take it.
    private func tell(_ trouble: EventSocketProtocol.Trouble) {
        troubled = trouble.reason != nil
        guard let frame = try? WireFormat.encoder().encode(EventSocketProtocol.Frame(trouble)) else { return }
        for subscriber in subscribers.values where subscriber.takes(EventSocketProtocol.Trouble.type) { subscriber.continuation.yield(frame) }
    }

    /// Whether the connection that just ended was well: it delivered an event, or stayed open a minute.
    private func wasWell() -> Bool {
        defer { (readyAt, delivered) = (nil, false) }
        return delivered || readyAt.map { ContinuousClock.now - $0 >= .seconds(60) } ?? false
    }

    private func dropped(_ error: AppError) {
        connected(nil)
        if case .ended = state { return }
        state = .connecting
        failWaiters(error)
    }

    private func end(_ error: AppError) {
        connected(nil)
        state = .ended(error)
        failWaiters(error)
        subscribers.values.forEach { $0.continuation.finish() }
        subscribers = [:]
    }

    private func run() async {
        var failures = 0
        let logger = Logger(label: "messageai.events")
        // Pings find a connection that died without a word (a sleeping laptop, a NAT timeout).
        var configuration = WebSocketClientConfiguration(
            maxFrameSize: EventSocketProtocol.maxFrameBytes, autoPing: .enabled(timePeriod: .seconds(20)))
        configuration.additionalHeaders[.authorization] = "Bearer \(token)"
        let tls = connection.server.scheme == "https" ? connection.tls : nil
        while !Task.isCancelled {
            let url = connection.server.webSocketURL(EventSocketProtocol.path + (lastCursor.map { "?after=\($0)" } ?? ""))
            let reason: String
            do {
                let close = try await WebSocketClient.connect(url: url, configuration: configuration, tlsConfiguration: tls, logger: logger) {
                    inbound, outbound, _ in
                    await self.connected(outbound)
                    for try await message in inbound.messages(maxSize: EventSocketProtocol.maxFrameBytes) {
                        if case .text(let text) = message { await self.receive(text) }
                    }
                }
                if close?.closeCode == .unknown(EventSocketProtocol.sessionEnded) {
                    end(AppError.notSignedIn)
                    return
                }
                // A frame over the limit ends the connection with no close frame from the server.
                reason =
                    close.map { "the events socket closed (\($0.closeCode))" }
                    ?? "the events socket dropped (a frame over the \(EventSocketProtocol.maxFrameBytes / 1_024) KiB this client reads?)"
            } catch let error as WebSocketClientError where error == .webSocketUpgradeFailed {
                if await connection.status(of: EventSocketProtocol.path, token: token) == 401 {
                    end(AppError.notSignedIn)
                    return
                }
                reason = "the server refused the events socket"
            } catch let error as WebSocketClientError where error == .serverSentMessageTooLarge {
                reason = "the server sent a frame over the \(EventSocketProtocol.maxFrameBytes / 1_024) KiB this client reads"
            } catch {
                reason = RemoteConnection.reason(error)
            }
            dropped(connection.unreachable(reason))
            if subscribers.isEmpty {
                state = .idle
                runner = nil
                return
            }
            failures = wasWell() ? 1 : failures + 1
            let wait = Backoff.delay(afterFailures: failures)
            if failures > 1 {
                tell(
                    EventSocketProtocol.Trouble(
                        reason: "live updates failed \(failures) times in a row (\(reason)); "
                            + "trying again in \(Int(wait.components.seconds) + 1) s"))
            }
            try? await Task.sleep(for: wait)
        }
    }
}
