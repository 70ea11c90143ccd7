import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Kernel
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket
import ServerSupport

/// The server's connections: HTTP/1.1 for the API, upgraded to WebSocket for an events socket.
/// An events socket lives on in its channel's handlers (`EventSocketHandler`, `EventConnection`)
/// with no task of its own, which is what lets one server hold tens of thousands of them; an
/// HTTP connection is served by Hummingbird's responder as usual.
struct EventSocketChannel: ServerChildChannel, HTTPChannelHandler {
    /// What a connection became after its first request.
    enum Negotiated: Sendable {
        /// An events socket, running on its own.
        case socket
        /// An HTTP connection for the responder.
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// An upgrade refused: answered with why, then closed.
        case refused(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, ErrorReply)
    }

    /// A connection and what it becomes.
    struct Value: ServerChildChannelValue {
        let negotiated: EventLoopFuture<Negotiated>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let admission: EventSocketAdmission
    /// How long an HTTP connection may sit without a request before it is closed.
    let idleTimeout: Duration
    /// The connections of each client address, capped.
    let connections: AddressConnections
    /// The load balancers whose `X-Forwarded-For` names the client.
    let proxies: ClientAddress.TrustedProxies

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let peer = channel.remoteAddress?.ipAddress ?? "unknown"
        let proxied = proxies.contains(peer)
        guard proxied || connections.hold(peer, for: channel) else {
            // Closed before a byte is read: the address has all the connections it may have.
            ErrorReply.count("tooManyConnections")
            let refused = AppError(.rateLimited, "\(peer) has \(connections.limit) connections open already")
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(AddressConnections.Refusal())
                return Value(negotiated: channel.eventLoop.makeFailedFuture(refused), channel: channel)
            }
        }
        let (connections, proxies) = (connections, proxies)
        return channel.eventLoop.makeCompletedFuture {
            // Until its first request has come, nothing else watches a connection's silence.
            try channel.pipeline.syncOperations.addHandler(FirstRequestDeadline(timeout: TimeAmount(idleTimeout)), name: FirstRequestDeadline.name)
            let decision = NIOLoopBoundBox<Result<EventSocketAdmission.Admitted, any Error>?>(nil, eventLoop: channel.eventLoop)
            let admission = admission
            let upgrader = NIOTypedWebSocketServerUpgrader<Negotiated>(
                maxFrameSize: EventSocketProtocol.maxFrameBytes,
                shouldUpgrade: { channel, head in
                    let promise = channel.eventLoop.makePromise(of: Result<EventSocketAdmission.Admitted, any Error>.self)
                    promise.completeWithTask {
                        guard URI(head.uri).path == EventSocketProtocol.path else {
                            return .failure(
                                AppError(
                                    .notFound,
                                    "no WebSocket at \(AppError.quoting(URI(head.uri).path)); the events socket is \(EventSocketProtocol.path)"))
                        }
                        // Through a proxy the socket counts against the client it names.
                        let client = proxies.client(peer: peer, forwardedFor: head.headers[canonicalForm: "x-forwarded-for"].map(String.init))
                        guard !proxied || connections.hold(client, for: channel) else {
                            return .failure(
                                RetryLater(
                                    AppError(.rateLimited, "\(client) has \(connections.limit) connections open already; close one"),
                                    seconds: 5))
                        }
                        do {
                            return .success(try await admission.admit(authorization: head.headers.first(name: "authorization"), uri: head.uri))
                        } catch {
                            return .failure(error)
                        }
                    }
                    return promise.futureResult.map { result in
                        // The place is held until the connection closes, upgraded or not.
                        if case .success(let admitted) = result { channel.closeFuture.whenComplete { _ in admitted.reservation.release() } }
                        decision.value = result
                        return (try? result.get()) == nil ? nil : HTTPHeaders()
                    }
                },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        guard case .success(let admitted) = decision.value else { throw ChannelError.inappropriateOperationForState }
                        FirstRequestDeadline.lift(on: channel)
                        try admission.open(admitted, on: channel, logger: logger)
                        return Negotiated.socket
                    }
                })
            let upgrades = NIOTypedHTTPServerUpgradeConfiguration<Negotiated>(upgraders: [upgrader]) { channel in
                channel.eventLoop.makeCompletedFuture {
                    FirstRequestDeadline.lift(on: channel)
                    try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                    try channel.pipeline.syncOperations.addHandler(HTTPConnectionStateHandler(idleTimeout: idleTimeout, logger: logger))
                    let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                        wrappingChannelSynchronously: channel,
                        configuration: .init(isOutboundHalfClosureEnabled: true))
                    // NIO does not hand a refused upgrade request on, so it is answered here.
                    guard case .failure(let error) = decision.value else { return .http(http) }
                    return .refused(
                        http,
                        ErrorReply.answer(
                            error, logger: logger, "events socket admission failed",
                            metadata: ["path": "\(EventSocketProtocol.path)"]))
                }
            }
            var configuration = NIOUpgradableHTTPServerPipelineConfiguration(upgradeConfiguration: upgrades)
            configuration.enablePipelining = false  // the responder reads one request after another
            configuration.enableErrorHandling = false  // Hummingbird answers parse errors
            configuration.enableResponseHeaderValidation = false  // HTTP types validate them
            return Value(
                negotiated: try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: configuration),
                channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.negotiated.get() {
            case .socket: return
            case .http(let http): await handleHTTP(asyncChannel: http, logger: logger)
            case .refused(let http, let reply): try await Self.answer(http, with: reply)
            }
        } catch {
            logger.debug("connection ended before its first request: \(error)")
        }
    }

    /// Writes `reply` on `http` and closes it.
    private static func answer(_ http: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, with reply: ErrorReply) async throws {
        let body = try WireFormat.encoder().encode(reply.error)
        var headers = reply.headers
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.contentLength] = "\(body.count)"
        headers[.connection] = "close"
        try await http.executeThenClose { _, outbound in
            try await outbound.write(contentsOf: [
                .head(HTTPResponse(status: .init(code: reply.status), headerFields: headers)),
                .body(ByteBuffer(bytes: body)), .end(nil),
            ])
        }
    }

    /// Closes a connection whose first request head has not come within `timeout` (nothing,
    /// or a head sent a byte at a time): after it, Hummingbird's connection handler watches an
    /// HTTP connection's silence and the events socket its own.
    final class FirstRequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        static let name = "first-request-deadline"
        private let timeout: TimeAmount
        private var deadline: Scheduled<Void>?

        init(timeout: TimeAmount) { self.timeout = timeout }

        /// Removes the deadline from `channel`'s pipeline: its first request has come.
        static func lift(on channel: any Channel) {
            channel.pipeline.removeHandler(name: name, promise: nil)
        }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { arm(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            arm(context)
            context.fireChannelActive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            deadline?.cancel()
        }

        private func arm(_ context: ChannelHandlerContext) {
            guard deadline == nil else { return }
            let channel = context.channel
            deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        }
    }
}
