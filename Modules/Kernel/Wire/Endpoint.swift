import Foundation

/// One operation of the HTTP API: its method, path, parameters and the types of its request and
/// reply bodies. Each feature's API target declares its endpoints; the remote service calls them
/// and the server's routes serve them, so the two ends cannot disagree and still compile.
public struct Endpoint<Body: WireType, Reply: WireType>: Sendable {
    /// What it is, as the API document lists it: method, path template, parameters, schemas.
    public let spec: EndpointDescription

    /// Declares an endpoint. `path` is under the server's root, with `{name}` for each path
    /// parameter (`/v1/conversations/{conversation}/messages`).
    public init(_ method: WireMethod, _ path: String, _ summary: String, query: [QueryParameter] = [], needsSession: Bool = true,
                successStatus: Int = 200) {
        spec = EndpointDescription(method: method, path: path, summary: summary, query: query, needsSession: needsSession,
                                   successStatus: successStatus, body: Body.self == NoContent.self ? nil : Body.schema,
                                   reply: Reply.self == NoContent.self ? nil : Reply.schema)
    }

    /// The path with each `{name}` replaced by `values[name]`, percent-encoded.
    public func path(_ values: [String: String]) -> String {
        EndpointDescription.parameters(in: spec.path).reduce(spec.path) { path, name in
            path.replacingOccurrences(of: "{\(name)}", with: (values[name] ?? "").addingPercentEncoding(withAllowedCharacters: Self.kept) ?? "")
        }
    }

    /// Characters a path parameter keeps as they are: the unreserved ones of RFC 3986.
    private static var kept: CharacterSet { CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~") }
}
