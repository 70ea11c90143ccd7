import Chat
import ChatServer
import Foundation
import Kernel
import Logging
import NIOCore
import NIOWebSocket
import Synchronization

/// One client's events socket. While live it has no task of its own: the feed hands it each
/// event on the publisher's thread and it queues the frame in its `SocketOutbox`, which the
/// connection's event loop writes, so an idle socket costs only its channel. A short task writes
/// what the socket starts with (`socket.ready`, then the events stored after the client's
/// cursor, a page at a time as the client takes them) while live events wait, then goes. A
/// client that stops reading is ended by its outbox's rules, holding up no one else.
final class EventConnection: Sendable {
    /// How long a client has to take the close frame before the connection is cut.
    static let closeGrace: TimeAmount = .seconds(2)

    private enum Phase {
        /// Writing what the socket starts with; live events wait in `State.waiting`.
        case starting
        case live
        case ended
    }

    private struct State {
        var phase = Phase.starting
        var waiting: [UserEvent] = []
        var gate = CursorGate(after: nil)
        /// To the owner's events, and (once live) to typing in their conversations.
        var subscriptions: [EventSubscription] = []
    }

    /// The session the socket was opened with.
    let caller: Caller
    /// Whose socket it is.
    let owner: UserID
    /// What the owner may read (`ChatRules.shows`): a bot's token, its conversations alone.
    private let grant: Grant

    /// Whether the socket is a bot's: its token is checked again more often, and whenever one
    /// is revoked (`SessionEnd.botTokens`).
    var actsForBot: Bool { grant != .person }
    private let channel: any Channel
    private let outbox: SocketOutbox
    private let sockets: OpenSockets
    private let frames: ReaderFrames
    private let logger: Logger
    private let state = Mutex(State())

    /// A connection for `owner` over the upgraded `channel`, registered in `sockets` until it
    /// closes; its live frames come from `frames`, shared by every connection, but for a message
    /// with reactions of the owner or of someone `peopleApart` names (`Message.seen(by:apart:)`). A client cut off
    /// as too slow or silent is logged to `logger`.
    init(
        caller: Caller, owner: UserID, grant: Grant = .person, channel: any Channel, sockets: OpenSockets, frames: EventFrames,
        peopleApart: @escaping @Sendable () async throws -> Set<UserID> = { [] }, logger: Logger
    ) {
        self.caller = caller
        self.owner = owner
        self.grant = grant
        self.channel = channel
        self.sockets = sockets
        outbox = SocketOutbox(channel: channel, maxFrames: sockets.queueFrames)
        self.frames = ReaderFrames(reader: owner, frames: frames, peopleApart: peopleApart)
        self.logger = logger
        outbox.whenTooSlow { [weak self] in self?.end(.tooSlow) }
    }

    /// Registers the socket, then checks its session again: a sign-out between the admission
    /// and the registration closed no socket, and is found now. Then subscribes to the owner's
    /// live events first, so none falls between; writes `socket.ready` (with `socket.reset`
    /// after a cursor of another store) and the events stored after `after`, then lets the
    /// waiting live events through; typing in the owner's conversations (`typing`) from before the ready frame on.
    func start(feed: any EventFeed, typing: TypingHub?, events: any EventStreamService, after: EventCursor?) {
        sockets.add(self)
        Task {
            do {
                _ = try await caller.principal()
            } catch {
                return end((error as? AppError)?.kind == .notSignedIn ? .sessionEnded : .streamEnded)
            }
            do {
                let subscription = try await feed.subscribe(conversation: nil, member: owner) { [weak self] event in self?.offer(event) ?? false }
                guard adopt(subscription) else { return }
                await frames.lookApart()
                try await writeStart(events: events, typing: typing, after: after)
                goLive()
            } catch {
                end(.streamEnded)
            }
        }
    }

    /// Ends the socket: sends the close frame that says why and waits for the client's (or
    /// `closeGrace`) before the connection goes. Later calls do nothing.
    func end(_ reason: SocketEnding) {
        guard let subscriptions = stop() else { return }
        subscriptions.forEach { $0.cancel() }
        if reason == .tooSlow || reason == .unanswered {
            logger.notice("events socket closed", metadata: ["user": "\(owner.rawValue)", "reason": "\(reason.frame.reason)"])
        }
        _ = Self.sendClose(reason.frame.code, reason: reason.frame.reason, on: channel)
    }

    /// The client sent a close frame: true if it began the closing, so the server answers it.
    func clientClosed() -> Bool {
        guard let subscriptions = stop() else { return false }
        subscriptions.forEach { $0.cancel() }
        return true
    }

    /// The channel closed.
    func closed() {
        stop()?.forEach { $0.cancel() }
        sockets.remove(self)
    }

    /// Queues the frame `text` that answers a request of the client's (`SocketClient.answer`); ends
    /// the socket as too slow when its queue is full. Dropped once the socket has ended.
    func answer(_ text: Data) {
        let full = state.withLock { state in
            if case .ended = state.phase { return false }
            return outbox.queue(text) == nil
        }
        if full { end(.tooSlow) }
    }

    /// The client sent a frame: it is there.
    func heard() { outbox.heard() }

    /// Ends the socket if its client has stopped taking frames or has not answered a ping for
    /// `pingInterval`; pings it when it has been silent for `pingInterval`.
    func check(at now: ContinuousClock.Instant, pingInterval: Duration) {
        switch outbox.check(at: now, pingInterval: pingInterval) {
        case .fine: break
        case .end(let reason): end(reason)
        case .ping: channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .ping, data: channel.allocator.buffer(capacity: 0)), promise: nil)
        }
    }

    /// Writes a close frame with `code` and `reason` on `channel` and cuts the connection if it
    /// is still open `closeGrace` later: a client that stopped reading may never take the frame.
    /// The future completes once the client's socket has taken it.
    static func sendClose(_ code: WebSocketErrorCode, reason: String, on channel: any Channel) -> EventLoopFuture<Void> {
        var data = channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        data.write(webSocketErrorCode: code)
        data.writeString(reason)
        channel.eventLoop.scheduleTask(in: closeGrace) { channel.close(promise: nil) }
        return channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
    }

    /// Marks the socket ended; its subscriptions the first time, `nil` after.
    private func stop() -> [EventSubscription]? {
        state.withLock { state in
            if case .ended = state.phase { return nil }
            state.phase = .ended
            state.waiting = []
            outbox.close()
            return state.subscriptions
        }
    }

    /// Keeps `subscription`, unless the socket ended meanwhile (then cancels it; false).
    private func adopt(_ subscription: EventSubscription) -> Bool {
        let kept = state.withLock { state in
            if case .ended = state.phase { return false }
            state.subscriptions.append(subscription)
            return true
        }
        if !kept { subscription.cancel() }
        return kept
    }

    private func writeStart(events: any EventStreamService, typing: TypingHub?, after: EventCursor?) async throws {
        guard let after else {
            try await writeReady(cursor: try? await events.newestCursor(), typing: typing)
            return
        }
        var page: [UserEvent]
        do {
            page = try await events.events(after: after, limit: ChatRules.catchUpLimit)
        } catch let error as AppError where error.kind == .gone {
            // A cursor of another store: the client reloads what it shows, then goes on live.
            try await writeReady(cursor: nil, typing: typing)
            try await write(EventSocketProtocol.Frame(EventSocketProtocol.Reset()))
            return
        }
        state.withLock { $0.gate = CursorGate(after: after) }
        try await writeReady(cursor: nil, typing: typing)
        while true {
            try await writeBacklog(state.withLock { state in page.filter { state.gate.admit($0.cursor) == .pass } })
            guard ChatRules.isFull(page), let last = state.withLock({ $0.gate.last }) else { return }
            page = try await events.events(after: last, limit: ChatRules.catchUpLimit)
        }
    }

    /// Follows typing in the owner's conversations (`typing`), starting with who types now, then
    /// writes `socket.ready`: a client that has its ready frame misses no notice sent after it.
    /// Typing is not caught up, and goes out at once, before the ready frame and between
    /// backlog frames too.
    private func writeReady(cursor: EventCursor?, typing: TypingHub?) async throws {
        // A bot's token hears no typing: it reads only what its scope names, and typing says nothing it needs.
        if let typing, grant == .person { _ = adopt(await typing.subscribe(member: owner) { [weak self] notice in self?.offer(notice) ?? false }) }
        try await write(EventSocketProtocol.Frame(EventSocketProtocol.Ready(cursor: cursor)))
    }

    /// Writes `events` in order, as many at a time as the queue has room for, each batch once
    /// the client has taken the one before: a page may be larger than the queue. With no room
    /// at all the client is too slow.
    private func writeBacklog(_ events: [UserEvent]) async throws {
        var rest = events[...]
        while !rest.isEmpty {
            let (written, count) = state.withLock { state -> (EventLoopFuture<Void>?, Int) in
                var written: EventLoopFuture<Void>?, count = 0
                for event in rest {
                    guard let future = outbox.queue(EventFrames.text(of: event)) else { break }
                    (written, count) = (future, count + 1)
                }
                return (written, count)
            }
            guard let written else {
                end(.tooSlow)
                throw ChannelError.outputClosed
            }
            try await written.get()
            rest = rest.dropFirst(count)
        }
    }

    /// Queues `frame` and waits until the client's socket has taken it.
    private func write(_ frame: some Encodable) async throws {
        let text = EventFrames.text(of: frame)
        guard let written = outbox.queue(text) else { throw ChannelError.ioOnClosedChannel }
        try await written.get()
    }

    /// Lets the events that came while starting through, and every later one at once.
    private func goLive() {
        let ending = state.withLock { state -> SocketEnding? in
            guard case .starting = state.phase else { return nil }
            state.phase = .live
            defer { state.waiting = [] }
            for event in state.waiting {
                if let ending = pass(event, &state) { return ending }
            }
            return nil
        }
        if let ending { end(ending) }
    }

    /// Takes a live event from the feed; false when the socket can take no more.
    private func offer(_ event: UserEvent) -> Bool {
        // Not the reader's to see: passed over, the socket listening on.
        guard ChatRules.shows(event, under: grant) else { return true }
        let (kept, ending) = state.withLock { state -> (Bool, SocketEnding?) in
            switch state.phase {
            case .ended: return (false, nil)
            case .starting:
                guard state.waiting.count < sockets.queueFrames else { return (false, .tooSlow) }
                state.waiting.append(event)
                return (true, nil)
            case .live:
                let ending = pass(event, &state)
                return (ending == nil, ending)
            }
        }
        if let ending { end(ending) }
        return kept
    }

    /// Takes a typing notice from the hub: queued at once; false when the socket can take no more.
    private func offer(_ notice: TypingNotice) -> Bool {
        let (kept, full) = state.withLock { state -> (Bool, Bool) in
            if case .ended = state.phase { return (false, false) }
            let queued = outbox.queue(EventFrames.text(of: EventSocketProtocol.Frame(notice))) != nil
            return (queued, !queued)
        }
        if full { end(.tooSlow) }
        return kept
    }

    /// Queues a live event unless it was given already; why the socket must end, if it must.
    private func pass(_ event: UserEvent, _ state: inout State) -> SocketEnding? {
        switch state.gate.admit(event.cursor) {
        case .pass: outbox.queue(frames.text(of: event)) == nil ? .tooSlow : nil
        case .repeated: nil
        case .otherEpoch: .streamEnded
        }
    }
}
