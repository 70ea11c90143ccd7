/// An endpoint as the API document lists it, whatever its body types.
public struct EndpointDescription: Sendable {
    /// The method.
    public let method: WireMethod
    /// The path template.
    public let path: String
    /// The names of the path's parameters, as its `Path` type has them (a test checks them
    /// against the template's).
    public let pathParameters: [String]
    /// One line on what it does.
    public let summary: String
    /// The query parameters it reads.
    public let query: [QueryParameter]
    /// Whether it needs a session token (`Authorization: Bearer …`).
    public let needsSession: Bool
    /// The status of success.
    public let successStatus: Int
    /// The request body's schema; `nil` when it takes none.
    public let body: WireSchema?
    /// The reply body's schema; `nil` when it sends none.
    public let reply: WireSchema?

    /// The `{name}` parameters of a path template, in order.
    public static func parameters(in path: String) -> [String] {
        path.split(separator: "/").compactMap(parameter(in:))
    }

    /// The name of the parameter a path template's `segment` stands for (`{name}`), if it is one.
    public static func parameter(in segment: Substring) -> String? {
        segment.hasPrefix("{") && segment.hasSuffix("}") ? String(segment.dropFirst().dropLast()) : nil
    }
}
