/// A value sent as a JSON body or frame: Codable, with the schema the API document shows.
public protocol WireType: Codable, Sendable {
    /// Its shape on the wire.
    static var schema: WireSchema { get }
}
