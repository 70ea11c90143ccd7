import ChatServer
import ConversationListServer
import Foundation
import HummingbirdWebSocket
import Kernel
import NIOWebSocket
import Synchronization

/// One client's events socket: subscribes to the caller's streams, then writes their events in
/// order through a bounded queue and its own writer, so a client that stops reading fills only
/// its own queue and is closed as too slow instead of holding anyone else up. Also closes the
/// socket when the session ends and, through `OpenSockets`, when the server shuts down.
struct EventConnection: Sendable {
    /// Why the server closed the socket.
    private enum Ending: Sendable {
        case tooSlow, sessionEnded, shuttingDown

        var frame: (WebSocketErrorCode, String) {
            switch self {
            case .tooSlow: (.unknown(EventSocketProtocol.tooSlow), "too slow: reconnect")
            case .sessionEnded: (.unknown(EventSocketProtocol.sessionEnded), "session ended")
            case .shuttingDown: (.goingAway, "server shutting down")
            }
        }
    }

    let caller: Caller
    let sockets: OpenSockets
    let chat: ChatRoutes
    let conversations: ConversationListRoutes
    /// How often the session is checked again.
    let sessionCheck: Duration

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let (queue, queued) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(EventSocketProtocol.queueLimit))
        let ending = Mutex<Ending?>(nil)
        let end: @Sendable (Ending) -> Void = { reason in
            ending.withLock { $0 = $0 ?? reason }
            queued.finish()
        }
        let enqueue: @Sendable (String) -> Void = { frame in
            if case .dropped = queued.yield(frame) { end(.tooSlow) }
        }
        let messages = try await chat.events(for: caller)
        let changes = try await conversations.events(for: caller)
        let key = sockets.add { end(.shuttingDown) }
        defer { sockets.remove(key) }
        try await withThrowingTaskGroup { group in
            group.addTask { for await event in messages { enqueue(Self.encode(event)) } }
            group.addTask { for await event in changes { enqueue(Self.encode(event)) } }
            group.addTask { try await watchSession(end: end) }
            group.addTask {
                for try await _ in inbound {}
                queued.finish()
            }
            try await outbound.write(.text(Self.encode(SocketReady())))
            for await frame in queue { try await outbound.write(.text(frame)) }
            group.cancelAll()
        }
        if let reason = ending.withLock({ $0 }) {
            try? await outbound.close(reason.frame.0, reason: reason.frame.1)
        }
    }

    /// Returns once the caller's session has ended.
    private func watchSession(end: @Sendable (Ending) -> Void) async throws {
        while true {
            try await Task.sleep(for: sessionCheck)
            do {
                _ = try await caller.id()
            } catch let error as AppError where error.kind == .notSignedIn {
                end(.sessionEnded)
                return
            } catch {}
        }
    }

    private static func encode<Event: WireEvent>(_ event: Event) -> String {
        (try? String(decoding: WireFormat.encoder().encode(EventFrame(event)), as: UTF8.self)) ?? ""
    }
}
