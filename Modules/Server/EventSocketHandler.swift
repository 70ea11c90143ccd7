import NIOCore
import NIOWebSocket

/// The frames a client sends on its events socket, on the connection's event loop: pings are
/// answered, any frame shows the client is there, a close is answered and ends the connection.
/// The socket carries nothing else from the client, so data frames are read and dropped.
final class EventSocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let connection: EventConnection

    init(connection: EventConnection) { self.connection = connection }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        connection.heard()
        switch frame.opcode {
        case .ping:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            guard connection.clientClosed() else {
                context.close(promise: nil)
                return
            }
            let channel = context.channel
            let reply = EventConnection.closeFrame(.normalClosure, reason: "", allocator: channel.allocator)
            context.writeAndFlush(wrapOutboundOut(reply)).whenComplete { _ in channel.close(promise: nil) }
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
