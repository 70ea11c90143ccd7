import Chat
import ChatAPI
import Foundation
import Kernel
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// A bare events-socket client for generating load: its frames are handled on the NIO event
/// loop, with no task or stream per frame, and of each frame it reads only what a benchmark
/// needs (its type, a reply's request, a message's id and position), by scanning the server's compact JSON.
/// The load generator shares the server's two cores, so its own cost per message is kept small;
/// `--client library` measures with the remote services a REPL uses instead.
final class LoadSocket: Sendable {
    /// What a frame from the server was, as far as the benchmarks care.
    enum Frame: Sendable {
        /// `socket.ready`: the socket is live.
        case ready
        /// The answer to the send of message `request`: stored, or refused.
        case reply(request: String, refused: Bool)
        /// A `chat.message` event with the message `id` at `position` in the store's order.
        case message(id: String, position: Int64)
        /// Any other frame.
        case other
    }

    /// What the server sent the socket so far: its text frames, their bytes, the largest, and
    /// whether the socket closed (a frame past the limit closes it).
    struct Traffic: Sendable {
        var frames = 0
        var bytes = 0
        var largest = 0
        var closed = false
    }

    private let channel: any Channel
    private let arrived: @Sendable (MessageID, Int64) -> Void
    private let waiting = Mutex<[String: CheckedContinuation<Void, any Error>]>([:])
    private let counted = Mutex(Traffic())

    /// What the server sent the socket so far.
    var traffic: Traffic { counted.withLock { $0 } }

    private init(channel: any Channel, arrived: @escaping @Sendable (MessageID, Int64) -> Void) {
        self.channel = channel
        self.arrived = arrived
    }

    /// Opens the events socket of the user signed in with `token` on `server`, and returns once
    /// the server said it is ready; each message that comes goes to `arrived` with its position, on the socket's
    /// event loop.
    static func open(_ server: String, token: String, arrived: @escaping @Sendable (MessageID, Int64) -> Void = { _, _ in }) async throws
        -> LoadSocket
    {
        guard let url = URL(string: server), let host = url.host, let port = url.port else {
            throw AppError(.usage, "the server URL \(server) has no host and port")
        }
        let ready = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: LoadSocket.self)
        // A server that never says the socket is ready fails the benchmark rather than hanging it.
        ready.futureResult.eventLoop.scheduleTask(in: .seconds(10)) {
            ready.fail(AppError(.unavailable, "the events socket was not ready within 10 s"))
        }
        let upgraded = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<Bool>(maxFrameSize: EventSocketProtocol.maxFrameBytes) { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            let socket = LoadSocket(channel: channel, arrived: arrived)
                            try channel.pipeline.syncOperations.addHandler(LoadSocketHandler(socket: socket, ready: ready))
                            return true
                        }
                    }
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: "\(host):\(port)")
                    headers.add(name: "Authorization", value: "Bearer \(token)")
                    let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: EventSocketProtocol.path, headers: headers)
                    let configuration = NIOTypedHTTPClientUpgradeConfiguration<Bool>(
                        upgradeRequestHead: head, upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in channel.eventLoop.makeSucceededFuture(false) })
                    var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: configuration)
                    // The server's first frame may come in the same read as its upgrade response.
                    pipeline.leftOverBytesStrategy = .forwardBytes
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: pipeline)
                }
            }
        if try await !upgraded.get() { ready.fail(AppError(.unavailable, "the server refused the events socket")) }
        return try await ready.futureResult.get()
    }

    /// Sends message `id` with `text` to `conversation` as a `chat.send` frame and returns once
    /// the server's reply says it is stored.
    func send(id: MessageID, text: String, to conversation: ConversationID) async throws {
        var frame = WireText()
        frame.object { fields in
            fields.field("conversation", conversation.rawValue)
            fields.field("id", id.rawValue)
            fields.field("text", text)
            fields.field("type", ChatSocket.SendFrame.type)
        }
        let channel = channel
        try await withCheckedThrowingContinuation { reply in
            waiting.withLock { $0[id.rawValue] = reply }
            channel.eventLoop.execute { [bytes = frame.bytes] in
                let data = channel.allocator.buffer(bytes: bytes)
                channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: data), promise: nil)
            }
        }
    }

    /// Writes a `chat.typing` frame with no id (the server answers none) saying whether the user
    /// types in `conversation`; returns once the socket has taken it.
    func sayTyping(_ typing: Bool, in conversation: ConversationID) async throws {
        var frame = WireText()
        frame.object { fields in
            fields.field("conversation", conversation.rawValue)
            fields.field("type", TypingNotice.type)
            fields.field("typing", typing)
        }
        let data = channel.allocator.buffer(bytes: frame.bytes)
        try await channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: data)).get()
    }

    /// Closes the socket.
    func close() { channel.close(promise: nil) }

    /// Takes a frame from the server, on the socket's event loop.
    fileprivate func received(_ frame: Frame) {
        switch frame {
        case .reply(let request, let refused):
            guard let reply = waiting.withLock({ $0.removeValue(forKey: request) }) else { return }
            if refused { reply.resume(throwing: AppError(.internal, "the server refused the send of \(request)")) } else { reply.resume() }
        case .message(let id, let position): arrived(MessageID(id), position)
        case .ready, .other: break
        }
    }

    /// Counts a text frame of `bytes` from the server, on the socket's event loop.
    fileprivate func count(_ bytes: Int) {
        counted.withLock { traffic in
            traffic.frames += 1
            traffic.bytes += bytes
            traffic.largest = max(traffic.largest, bytes)
        }
    }

    /// The socket closed: sends still waiting fail.
    fileprivate func closed() {
        counted.withLock { $0.closed = true }
        let replies = waiting.withLock { waiting in
            defer { waiting = [:] }
            return waiting.values
        }
        replies.forEach { $0.resume(throwing: AppError(.unavailable, "the events socket closed")) }
    }

    /// What `bytes`, a frame of the server's, is: its fields are read by scanning for their keys,
    /// which the server writes without spaces; none of them occurs in an escaped string.
    static func frame(_ bytes: ByteBuffer) -> Frame {
        bytes.withUnsafeReadableBytes { raw in
            switch value(of: #""type":""#, in: raw) {
            case EventSocketProtocol.replyType:
                value(of: #""request":""#, in: raw).map { .reply(request: $0, refused: value(of: #""kind":""#, in: raw) != nil) } ?? .other
            case UserEvent.messageType:
                value(of: #""id":""#, in: raw).map {
                    .message(id: $0, position: value(of: #""cursor":""#, in: raw)?.split(separator: ".").last.flatMap { Int64($0) } ?? 0)
                } ?? .other
            case EventSocketProtocol.Ready.type: .ready
            default: .other
            }
        }
    }

    /// The string after the first occurrence of `key` (which ends with the value's opening quote).
    private static func value(of key: StaticString, in bytes: UnsafeRawBufferPointer) -> String? {
        let pattern = UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        guard let base = bytes.baseAddress, let first = pattern.first else { return nil }
        var start = 0
        while start + pattern.count <= bytes.count {
            if bytes[start] == first, memcmp(base + start, key.utf8Start, pattern.count) == 0 {
                let from = start + pattern.count
                guard let end = bytes[from...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[from..<end]), as: UTF8.self)
            }
            start += 1
        }
        return nil
    }
}

/// The socket's frames, on its event loop: the first `socket.ready` completes the opening, later
/// frames go to the socket, pings are answered.
private final class LoadSocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let socket: LoadSocket
    private var ready: EventLoopPromise<LoadSocket>?

    init(socket: LoadSocket, ready: EventLoopPromise<LoadSocket>) {
        self.socket = socket
        self.ready = ready
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            socket.count(frame.length)
            let kind = LoadSocket.frame(frame.unmaskedData)
            if case .ready = kind, let ready {
                self.ready = nil
                ready.succeed(socket)
                return
            }
            socket.received(kind)
        case .ping:
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            context.close(promise: nil)
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        ready?.fail(AppError(.unavailable, "the events socket closed before it was ready"))
        ready = nil
        socket.closed()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
