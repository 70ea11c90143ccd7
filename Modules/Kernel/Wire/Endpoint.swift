import Foundation

/// One operation of the HTTP API: its method, path, parameters and the types of its request and
/// reply bodies. Each feature's API target declares its endpoints; the remote service calls them
/// and the server's routes serve them, so the two ends cannot disagree and still compile.
public struct Endpoint<Body: WireType, Reply: WireType>: Sendable {
    /// The method.
    public let method: WireMethod
    /// The path under the server's root, with `{name}` for each path parameter
    /// (`/v1/conversations/{conversation}/messages`).
    public let path: String
    /// One line on what it does, for the API document.
    public let summary: String
    /// The query parameters it reads.
    public let query: [QueryParameter]
    /// Whether it needs a session token (`Authorization: Bearer …`).
    public let needsSession: Bool
    /// The status of success.
    public let successStatus: Int

    /// Declares an endpoint.
    public init(_ method: WireMethod, _ path: String, _ summary: String, query: [QueryParameter] = [], needsSession: Bool = true,
                successStatus: Int = 200) {
        self.method = method
        self.path = path
        self.summary = summary
        self.query = query
        self.needsSession = needsSession
        self.successStatus = successStatus
    }

    /// The names of its path parameters, in order.
    public var pathParameters: [String] { EndpointDescription.parameters(in: path) }

    /// The path with each `{name}` replaced by `values[name]`, percent-encoded.
    public func path(_ values: [String: String]) -> String {
        pathParameters.reduce(path) { path, name in
            path.replacingOccurrences(of: "{\(name)}", with: (values[name] ?? "").addingPercentEncoding(withAllowedCharacters: .wirePathValue) ?? "")
        }
    }

    /// What the API document shows of it.
    public var description: EndpointDescription {
        EndpointDescription(method: method, path: path, summary: summary, query: query, needsSession: needsSession,
                            successStatus: successStatus, body: Body.self == NoContent.self ? nil : Body.schema,
                            reply: Reply.self == NoContent.self ? nil : Reply.schema)
    }
}

extension CharacterSet {
    /// Characters a path parameter keeps as they are: the unreserved ones of RFC 3986.
    static let wirePathValue = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}
