/// The rules of the events socket, `GET /v1/events` upgraded to a WebSocket: the server sends
/// JSON text frames (`Frame`) for the session in the `Authorization` header and closes with
/// one of these codes when it ends the socket itself. A client may also send requests on it (a
/// text frame with a `type` and an `id`), each answered by one frame of type `replyType` whose
/// `request` is that id.
public enum EventSocketProtocol {
    /// Where the socket is opened; `?after=<cursor>` resumes after the last cursor received.
    public static let path = "/v1/events"
    /// Largest frame either side accepts, in bytes.
    public static let maxFrameBytes = 64 * 1_024
    /// Close code: the session was revoked or expired; the client signs in again.
    public static let sessionEnded: UInt16 = 4_401
    /// Close code: the client read too slowly: a write to it waited `slowAfter`; it reconnects.
    public static let tooSlow: UInt16 = 4_408
    /// How long a frame queued for a client may wait before the client counts as too slow.
    public static let slowAfter: Duration = .seconds(2)
    /// How many frames may wait for a client before it counts as too slow, unless the server is
    /// set otherwise (`events.queueFrames`).
    public static let queueFrames = 1_024
    /// How long the server lets a socket stay silent before it pings it; a socket that answers
    /// nothing (no pong, no frame) for twice this long is closed as dead.
    public static let pingInterval: Duration = .seconds(30)
    /// The `type` of the frame that answers a client's request.
    public static let replyType = "reply"
    /// Most requests of one socket being answered at once; past it a request is refused at once.
    public static let maxPendingRequests = 64
    /// Sockets one account may have open at once (each client process opens one).
    public static let socketsPerUser = 8

    /// A live event the server sends over the socket. Each kind has its own `type` name; a
    /// frame is `{"type": <type>, "cursor": <cursor, if any>, "event": <the event>}`.
    public protocol FrameEvent: WireType {
        /// The frame's `type`, unique across features (`chat.message`).
        static var type: String { get }
        /// The cursor a client resumes after, for events that have one (messages).
        var cursor: EventCursor? { get }
    }

    /// A request a client makes on the socket: a text frame `{"type": <type>, "id"?: …, …}`.
    /// The feature that owns the type registers what it does on the server; each is answered by
    /// one frame of type `replyType` whose `request` is the frame's `id` (none without an `id`).
    public protocol Request: Decodable, Sendable {
        /// The frame's `type`, unique across features (`chat.send`).
        static var type: String { get }
    }

    /// The answer to a request that gives nothing back but whether it was done:
    /// `{"type": "reply", "request": <the id>}`, or with `"error": {"kind", "message"}` when it
    /// was refused, with the error an HTTP request would have been answered with. Also the
    /// answer to a frame no feature takes.
    public struct Answer: Codable, Sendable, Equatable {
        /// Always `replyType`.
        public let type: String
        /// The id of the request answered.
        public let request: String
        /// Why it was refused; `nil` when it was done.
        public let error: WireError.Detail?

        /// The answer to request `request`: done, or `refusal`.
        public init(request: String, refusal: AppError?) {
            type = replyType
            self.request = request
            error = refusal.map { WireError($0).error }
        }

        /// Throws the refusal, if the request was refused, as the `AppError` a local backend would throw.
        public func check() throws {
            if let error { throw error.appError }
        }
    }

    /// One frame of the socket.
    public struct Frame<Event: FrameEvent>: Codable, Sendable {
        /// `Event.type`.
        public let type: String
        /// The event's cursor: a client that reconnects asks for what came after the last one.
        public let cursor: EventCursor?
        /// The event.
        public let event: Event

        /// The frame carrying `event`.
        public init(_ event: Event) {
            type = Event.type
            cursor = event.cursor
            self.event = event
        }
    }

    /// The part of a frame every reader looks at first, to know which event follows.
    public struct FrameHeader: Decodable, Sendable {
        /// The event's type name.
        public let type: String
        /// The event's cursor, if it has one.
        public let cursor: EventCursor?
        /// For a reply (`replyType`), the id of the request it answers.
        public let request: String?
    }

    /// Event: the server has subscribed the socket to every stream of the session; anything
    /// stored from now on will arrive. The first frame of every socket.
    public struct Ready: FrameEvent, Equatable {
        public static let type = "socket.ready"

        /// Where the client stands when it did not ask to resume: the newest message of its
        /// conversations at subscription, so that a reconnection asks for what came after it.
        public let cursor: EventCursor?

        /// The event.
        public init(cursor: EventCursor? = nil) { self.cursor = cursor }

        public static let schema = WireSchema.object([("cursor", .nullable(.cursor))], required: [])
    }

    /// Event: the cursor the socket was opened after is not this server's (its store was
    /// replaced): what follows is live only, and the client reloads what it shows.
    public struct Reset: FrameEvent, Equatable {
        public static let type = "socket.reset"

        /// The event.
        public init() {}

        public static let schema = WireSchema.object([], required: [])
    }

    /// Never sent by a server: what a client's socket tells its own readers when it keeps failing
    /// before it delivers anything (it cannot connect, or drops on its first frames), with why and
    /// when it tries again; and, with no `reason`, that it delivers again.
    public struct Trouble: FrameEvent, Equatable {
        public static let type = "socket.trouble"

        /// Why it failed the last time, and when it tries again; `nil` once it delivers again.
        public let reason: String?

        /// The event.
        public init(reason: String?) { self.reason = reason }

        public static let schema = WireSchema.object([("reason", .string())], required: [])
    }
}

extension EventSocketProtocol.FrameEvent {
    /// None: only messages have cursors.
    public var cursor: EventCursor? { nil }
}
