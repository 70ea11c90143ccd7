import Chat
import ChatAPI
import ChatServer
import Foundation
import HummingbirdWebSocket
import Kernel
import NIOCore
import NIOWebSocket
import Synchronization

/// One client's events socket: subscribes to the caller's streams, then writes their events in
/// order through a queue bounded in bytes and its own writer. A client catching up is paced by
/// its own socket; one that stops reading fills only its own queue and is closed as too slow
/// (`EventSocketProtocol.slowAfter`) instead of holding anyone else up. Also closes the socket
/// when the session ends and, through `OpenSockets`, when the server shuts down.
struct EventConnection: Sendable {
    /// Why the server closed the socket.
    private enum Ending: Sendable {
        case tooSlow, sessionEnded, shuttingDown, streamEnded

        var frame: (WebSocketErrorCode, String) {
            switch self {
            case .tooSlow: (.unknown(EventSocketProtocol.tooSlow), "too slow: reconnect")
            case .sessionEnded: (.unknown(EventSocketProtocol.sessionEnded), "session ended")
            case .shuttingDown: (.goingAway, "server shutting down")
            case .streamEnded: (.unexpectedServerError, "stream ended: reconnect")
            }
        }
    }

    let caller: Caller
    /// The cursor the client resumes after (`?after=`), if any.
    let after: EventCursor?
    /// The connection under the socket: closed outright when a slow client cannot even take
    /// the close frame.
    let channel: any Channel
    let sockets: OpenSockets
    let chat: ChatRoutes
    /// How long a too-slow client has to take its close frame before the connection is cut.
    static let closeGrace: Duration = .seconds(2)

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let queue = OutboundQueue(limit: EventSocketProtocol.queueBytes)
        let ending = Mutex<Ending?>(nil)
        let channel = channel
        let end: @Sendable (Ending) -> Void = { reason in
            let first = ending.withLock { current in
                defer { current = current ?? reason }
                return current == nil
            }
            queue.finish()
            guard first, reason == .tooSlow || reason == .shuttingDown else { return }
            // A client that stopped reading may not take the close frame either.
            Task {
                try await Task.sleep(for: Self.closeGrace)
                channel.close(promise: nil)
            }
        }
        let enqueue: @Sendable (String) async -> Void = { frame in
            if await !queue.push(frame, patience: EventSocketProtocol.slowAfter) { end(.tooSlow) }
        }
        var reset = false
        let events: AsyncStream<UserEvent>
        do {
            events = try await chat.events(for: caller, after: after)
        } catch let error as AppError where error.kind == .invalidInput && after != nil {
            // Not this store's cursor: live from now on, and the client reloads.
            reset = true
            events = try await chat.events(for: caller, after: nil)
        }
        let key = sockets.add(for: try await caller.id(), caller: caller, close: { end(.shuttingDown) }, expire: { end(.sessionEnded) })
        defer { sockets.remove(key) }
        try await withThrowingTaskGroup { group in
            group.addTask {
                for await event in events { await enqueue(Self.encode(event)) }
                // The store's stream ended under the socket (a failed read, a replaced store, a
                // reader so far behind that its live buffer overflowed): the client reconnects
                // and resumes after its last cursor.
                end(.streamEnded)
            }
            group.addTask {
                for try await _ in inbound {}
                queue.finish()
            }
            // Read after subscribing: a message stored in between comes live, none falls between.
            let newest = after == nil ? try? await chat.newestCursor(for: caller) : nil
            try await outbound.write(.text(Self.encode(SocketReady(cursor: newest ?? nil))))
            if reset { try await outbound.write(.text(Self.encode(SocketReset()))) }
            while let frame = await queue.next(), ending.withLock({ $0 }) != .tooSlow { try await outbound.write(.text(frame)) }
            group.cancelAll()
        }
        if let reason = ending.withLock({ $0 }) {
            try? await outbound.close(reason.frame.0, reason: reason.frame.1)
        }
    }

    private static func encode<Event: WireEvent>(_ event: Event) -> String { encode(frame: EventFrame(event)) }

    private static func encode(_ event: UserEvent) -> String { encode(frame: event) }

    private static func encode(frame: some Encodable) -> String {
        (try? String(decoding: WireFormat.encoder().encode(frame), as: UTF8.self)) ?? ""
    }
}
