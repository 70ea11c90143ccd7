import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's core context, the client's address (for
/// rate limits) and the body limit.
public struct APIRequestContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The client's IP address, or `unknown`.
    public let clientAddress: String

    /// Largest request body read, in bytes: a message of 4,000 characters that each need
    /// `\uXXXX` escaping fits, with room.
    public static let maxBodyBytes = 256 * 1_024

    /// `maxBodyBytes`.
    public var maxUploadSize: Int { Self.maxBodyBytes }

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }
}
