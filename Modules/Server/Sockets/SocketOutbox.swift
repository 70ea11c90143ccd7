import Foundation
import Kernel
import NIOCore
import NIOWebSocket
import Synchronization

/// The frames an events socket has queued for its client, written by the channel's event loop,
/// and what the server asks of a client in return: that it takes what it is sent and answers
/// pings. Frames queued before the event loop comes to write them go out together, with one
/// flush (a send's reply and its own event often do). A client that stops reading holds up no
/// one else: once a frame has waited `EventSocketProtocol.slowAfter` (`check(at:pingInterval:)`),
/// or its queue passes its frames or `maxQueuedBytes`, its socket is ended as too slow.
final class SocketOutbox: Sendable {
    /// Most bytes queued for a client before it counts as too slow.
    static let maxQueuedBytes = 8 * 1_024 * 1_024

    /// What a client's reading and silence call for.
    enum Verdict: Equatable {
        case fine, ping
        case end(SocketEnding)
    }

    private struct State {
        /// Frames queued and not yet taken by the client's socket, and their bytes.
        var queuedFrames = 0
        var queuedBytes = 0
        /// Frames queued since the event loop last wrote, written together with one flush.
        var unwritten: [Data] = []
        /// Completed once the event loop has written `unwritten` and the client's socket taken it.
        var unwrittenTaken: EventLoopPromise<Void>?
        /// The queue passed `maxQueuedBytes`: the event loop ends the socket as too slow.
        var overflowed = false
        /// The socket ended: nothing more is written.
        var closed = false
        /// When the client last took a frame, or was given one with none queued.
        var lastTaken = ContinuousClock.now
        /// When the client last sent a frame (a ping, a pong).
        var lastHeard = ContinuousClock.now
        /// When the unanswered ping was sent, if one is.
        var pinged: ContinuousClock.Instant?
    }

    private let channel: any Channel
    private let maxFrames: Int
    private let state = Mutex(State())
    private let tooSlow = Mutex<@Sendable () -> Void>({})

    /// The outbox of `channel`, which holds at most `maxFrames` frames.
    init(channel: any Channel, maxFrames: Int) {
        self.channel = channel
        self.maxFrames = maxFrames
    }

    /// What ends the socket when the event loop finds its queue overflowed.
    func whenTooSlow(_ end: @escaping @Sendable () -> Void) { tooSlow.withLock { $0 = end } }

    /// Queues the frame `text` for the event loop to write, in the order queued; `nil` when the
    /// queue is full. The future completes once the client's socket has taken the frame.
    func queue(_ text: Data) -> EventLoopFuture<Void>? {
        state.withLock { current -> EventLoopFuture<Void>? in
            guard current.queuedFrames < maxFrames else { return nil }
            if current.queuedFrames == 0 { current.lastTaken = .now }
            current.queuedFrames += 1
            current.queuedBytes += text.count
            current.overflowed = current.overflowed || current.queuedBytes > Self.maxQueuedBytes
            current.unwritten.append(text)
            if let taken = current.unwrittenTaken { return taken.futureResult }
            let taken = channel.eventLoop.makePromise(of: Void.self)
            current.unwrittenTaken = taken
            channel.eventLoop.execute { [self] in writeQueued() }
            return taken.futureResult
        }
    }

    /// The client sent a frame: it is there.
    func heard() {
        state.withLock { state in
            state.lastHeard = .now
            state.pinged = nil
        }
    }

    /// Whether the client has stopped taking frames, or has not answered a ping for
    /// `pingInterval`; a ping when it has been silent for `pingInterval` (counted as sent).
    func check(at now: ContinuousClock.Instant, pingInterval: Duration) -> Verdict {
        state.withLock { state -> Verdict in
            if state.closed { return .fine }
            if state.queuedFrames > 0 && now - state.lastTaken > EventSocketProtocol.slowAfter { return .end(.tooSlow) }
            if let pinged = state.pinged { return now - pinged > pingInterval ? .end(.unanswered) : .fine }
            guard now - state.lastHeard > pingInterval else { return .fine }
            state.pinged = now
            return .ping
        }
    }

    /// The socket ended: what is queued and not yet written never is.
    func close() { state.withLock { $0.closed = true } }

    /// On the event loop: writes the frames queued since it last did, then flushes once.
    private func writeQueued() {
        let (frames, taken, overflowed, closed) = state.withLock { state in
            defer { (state.unwritten, state.unwrittenTaken) = ([], nil) }
            return (state.unwritten, state.unwrittenTaken, state.overflowed, state.closed)
        }
        guard let taken else { return }
        let bytes = frames.reduce(0) { $0 + $1.count }
        taken.futureResult.whenComplete { [self] _ in
            state.withLock { state in
                state.queuedFrames -= frames.count
                state.queuedBytes -= bytes
                state.lastTaken = .now
            }
        }
        // Nothing follows the close frame: the client resumes from its cursor when it reconnects.
        if overflowed || closed {
            tooSlow.withLock { $0 }()
            taken.fail(ChannelError.outputClosed)
            return
        }
        for (index, text) in frames.enumerated() {
            let frame = WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(bytes: text))
            channel.write(frame, promise: index == frames.count - 1 ? taken : nil)
        }
        channel.flush()
    }
}
