import Logging
import NIOCore
import NIOWebSocket
import ServerSupport

/// The frames a client sends on its events socket, on the connection's event loop: pings are
/// answered (a few answers at most waiting for a client that does not read them), any frame
/// shows the client is there, a close is answered and ends the connection, and a whole text
/// frame is a request, for the feature that registered its type (`SocketRequests`). Other data
/// frames are read and dropped.
final class EventSocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// Most pongs written and not yet taken by the client: one that pings without reading the
    /// answers cannot pile them up in the server's memory.
    static let maxPendingPongs = 4

    private let connection: EventConnection
    private let admission: EventSocketAdmission
    private let logger: Logger
    /// The client's requests, once it has made one.
    private var requests: SocketRequestReader?
    private let pendingPongs: NIOLoopBoundBox<Int>

    /// The handler of `connection`'s frames, on `eventLoop`, the channel's; its client's requests
    /// go to `admission.requests(of:logger:)`.
    init(connection: EventConnection, admission: EventSocketAdmission, logger: Logger, eventLoop: any EventLoop) {
        self.connection = connection
        self.admission = admission
        self.logger = logger
        pendingPongs = NIOLoopBoundBox(0, eventLoop: eventLoop)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        connection.heard()
        switch frame.opcode {
        case .ping:
            guard pendingPongs.value < Self.maxPendingPongs else { return }
            pendingPongs.value += 1
            let pending = pendingPongs
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData))).whenComplete { _ in
                pending.value -= 1
            }
        case .connectionClose:
            guard connection.clientClosed() else {
                context.close(promise: nil)
                return
            }
            let channel = context.channel
            EventConnection.sendClose(.normalClosure, reason: "", on: channel).whenComplete { _ in channel.close(promise: nil) }
        case .text where frame.fin:
            let requests = requests ?? admission.requests(of: connection, logger: logger)
            self.requests = requests
            requests.received(frame.unmaskedData)
        default:
            break
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent { connection.end(.shuttingDown) }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.closed()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
