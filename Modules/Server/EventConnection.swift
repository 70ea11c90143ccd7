import Chat
import ChatAPI
import ChatServer
import Foundation
import HummingbirdWebSocket
import Kernel
import NIOCore
import Synchronization

/// One client's events socket. Its writer pulls the caller's events one at a time and writes
/// each before taking the next, so a client catching up is paced by its own socket (the backlog
/// is read a page at a time as it goes) and a client that stops reading holds up no one else:
/// its live events wait in its own bounded buffer, and `OpenSockets` ends it as too slow once a
/// write has waited `EventSocketProtocol.slowAfter`. Also ends the socket when the session ends
/// and when the server shuts down.
struct EventConnection: Sendable {
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

    /// Runs the socket until the client leaves or the server ends it.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let (events, reset) = try await subscribe()
        // Read after subscribing: an event stored in between comes live, none falls between.
        let newest = after == nil ? try? await chat.newestCursor(for: caller) : nil
        let watch = WriteWatch()
        let writer = Mutex<Task<Void, Never>?>(nil)
        let channel = channel
        let end: @Sendable (SocketEnding) -> Void = { reason in
            guard watch.end(reason) else { return }
            writer.withLock { $0?.cancel() }
            Task {
                try? await outbound.close(reason.frame.code, reason: reason.frame.reason)
                guard reason.cutsAfterGrace else { return }
                // A client that stopped reading may not take the close frame either.
                try await Task.sleep(for: Self.closeGrace)
                channel.close(promise: nil)
            }
        }
        let key = sockets.add(OpenSockets.Socket(owner: try await caller.id(), caller: caller, end: end, isStalled: watch.isStalled))
        let writing = Task {
            do {
                try await watch.writing { try await outbound.write(.text(Self.encode(frame: EventFrame(SocketReady(cursor: newest ?? nil))))) }
                if reset { try await watch.writing { try await outbound.write(.text(Self.encode(frame: EventFrame(SocketReset())))) } }
                for await event in events { try await watch.writing { try await outbound.write(.text(Self.encode(frame: event))) } }
                // The store's stream ended under the socket (not the socket under it): the
                // client reconnects and resumes.
                if !Task.isCancelled { end(.streamEnded) }
            } catch {}
        }
        writer.withLock { $0 = writing }
        // Ended before the writer was known (the server began shutting down): it stops now.
        if watch.hasEnded { writing.cancel() }
        defer {
            sockets.remove(key)
            writer.withLock { $0?.cancel() }
        }
        for try await _ in inbound {}
    }

    /// The caller's events after the client's cursor; for a cursor of another store, the live
    /// events only, and `true`: the client is told to reload.
    private func subscribe() async throws -> (AsyncStream<UserEvent>, reset: Bool) {
        do {
            return (try await chat.events(for: caller, after: after), false)
        } catch let error as AppError where error.kind == .invalidInput && after != nil {
            return (try await chat.events(for: caller, after: nil), true)
        }
    }

    private static func encode(frame: some Encodable) -> String {
        (try? String(decoding: WireFormat.encoder().encode(frame), as: UTF8.self)) ?? ""
    }
}

/// When a connection's writer began the write it is in, and why the connection ends.
private final class WriteWatch: Sendable {
    private struct State {
        var since: ContinuousClock.Instant?
        var ending: SocketEnding?
    }

    private let state = Mutex(State())

    /// Runs `write`, noting that a write is under way meanwhile.
    func writing(_ write: () async throws -> Void) async throws {
        state.withLock { $0.since = .now }
        defer { state.withLock { $0.since = nil } }
        try await write()
    }

    /// Whether a write has waited longer than `EventSocketProtocol.slowAfter`.
    func isStalled() -> Bool {
        state.withLock { $0.since.map { ContinuousClock.now - $0 > EventSocketProtocol.slowAfter } ?? false }
    }

    /// Whether the connection is ending.
    var hasEnded: Bool { state.withLock { $0.ending != nil } }

    /// Notes why the connection ends; true the first time only.
    func end(_ reason: SocketEnding) -> Bool {
        state.withLock { state in
            defer { state.ending = state.ending ?? reason }
            return state.ending == nil
        }
    }
}
