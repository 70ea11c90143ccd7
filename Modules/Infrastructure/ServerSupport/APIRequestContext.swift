import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's core context, the address the connection
/// comes from (the client's, or its proxy's: `ClientAddress.TrustedProxies`), its event loop and the
/// body limit.
public struct APIRequestContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The IP address of the connection's other end, or `unknown`.
    public let peerAddress: String
    /// The event loop of the request's connection (`APICall.connection`).
    public let connection: any EventLoop

    /// Largest request body read, in bytes: a message of 4,000 characters that each need
    /// `\uXXXX` escaping fits, with room.
    public static let maxBodyBytes = 256 * 1_024

    /// `maxBodyBytes`.
    public var maxUploadSize: Int { Self.maxBodyBytes }

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
        connection = source.channel.eventLoop
    }
}
