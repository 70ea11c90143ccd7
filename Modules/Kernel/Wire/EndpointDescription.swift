/// An endpoint as the API document lists it, whatever its body types.
public struct EndpointDescription: Sendable {
    public let method: WireMethod
    public let path: String
    public let summary: String
    public let query: [QueryParameter]
    public let needsSession: Bool
    public let successStatus: Int
    /// The request body's schema; `nil` when it takes none.
    public let body: WireSchema?
    /// The reply body's schema; `nil` when it sends none.
    public let reply: WireSchema?

    /// The `{name}` parameters of a path template, in order.
    public static func parameters(in path: String) -> [String] {
        path.split(separator: "/").compactMap { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? String(part.dropFirst().dropLast()) : nil
        }
    }
}
