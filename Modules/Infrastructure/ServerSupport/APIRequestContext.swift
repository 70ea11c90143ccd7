import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of every route: Hummingbird's core context, the WebSocket hand-over, the
/// client's address (for rate limits) and the body limit.
public struct APIRequestContext: RequestContext, WebSocketRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// Where the WebSocket route hands its handler over for the upgrade.
    public let webSocket: WebSocketHandlerReference<Self>
    /// The client's IP address, or `unknown`.
    public let clientAddress: String
    /// The connection, to be closed outright when a client stops reading.
    public let channel: any Channel

    /// Largest request body read, in bytes: a message of 4,000 characters that each need
    /// `\uXXXX` escaping fits, with room.
    public static let maxBodyBytes = 256 * 1_024

    /// `maxBodyBytes`.
    public var maxUploadSize: Int { Self.maxBodyBytes }

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
        channel = source.channel
    }
}
