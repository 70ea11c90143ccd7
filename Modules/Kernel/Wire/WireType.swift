/// A value sent as a JSON body or frame: Codable, with the schema the API document shows.
public protocol WireType: Codable, Sendable {
    /// Its shape on the wire.
    static var schema: WireSchema { get }
}

/// The body of a request or reply that has none.
public struct NoContent: WireType, Equatable {
    /// The empty value.
    public init() {}

    public static let schema = WireSchema.object([], required: [])
}

/// The body of a request or reply that is a file's bytes, not JSON (`application/octet-stream`):
/// an endpoint with it streams them, served by `APIRoutes.add(streaming:)`.
public struct ByteStream: WireType, Equatable {
    /// The body's media type.
    public static let mediaType = "application/octet-stream"

    /// The marker value.
    public init() {}

    public static let schema = WireSchema.string(format: "binary")
}
