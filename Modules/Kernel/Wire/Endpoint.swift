import Foundation

/// One operation of the HTTP API: its method, path, parameters and the types of its request and
/// reply bodies and of its path's parameters (`Path`). Each feature's API target declares its
/// endpoints; the remote service calls them and the server's routes serve them, so the two ends
/// cannot disagree and still compile.
public struct Endpoint<Body: WireType, Reply: WireType, Path: PathParameters.Kind>: Sendable {
    /// What it is, as the API document lists it: method, path template, parameters, schemas.
    public let spec: EndpointDescription

    /// Declares an endpoint. `path` is under the server's root, with `{name}` for each of
    /// `Path.names` (`/v1/conversations/{conversation}/messages`).
    public init(
        _ method: WireMethod, _ path: String, _ summary: String, query: [QueryParameter] = [], needsSession: Bool = true,
        successStatus: Int = 200
    ) {
        spec = EndpointDescription(
            method: method, path: path, pathParameters: Path.names, summary: summary, query: query, needsSession: needsSession,
            successStatus: successStatus, body: Body.self == NoContent.self ? nil : Body.schema,
            reply: Reply.self == NoContent.self ? nil : Reply.schema)
    }

    /// The path with its `{name}` segments filled from `parameters`, percent-encoded.
    public func path(_ parameters: Path) -> String {
        var values = parameters.values.makeIterator()
        return spec.path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            EndpointDescription.parameter(in: segment) == nil ? String(segment) : Self.percentEncoded(values.next() ?? "")
        }.joined(separator: "/")
    }

    /// `value` with every UTF-8 byte but RFC 3986's unreserved characters as `%XX`. Runs on
    /// every call a client makes, so it does not go through `CharacterSet`.
    static func percentEncoded(_ value: String) -> String {
        func kept(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                true
            default: false
            }
        }
        guard !value.utf8.allSatisfy(kept) else { return value }
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count * 3)
        for byte in value.utf8 {
            if kept(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

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

/// A query parameter an endpoint reads. Each API declares its own as constants, which clients
/// and routes name (never a string of their own); two parameters are the same when their names are.
public struct QueryParameter: Sendable, Hashable {
    /// Its name.
    public let name: String
    /// The shape of its value.
    public let schema: WireSchema
    /// Whether a request must carry it.
    public let required: Bool
    /// What it means.
    public let summary: String

    /// Declares a parameter.
    public init(_ name: String, _ schema: WireSchema, required: Bool = false, _ summary: String) {
        self.name = name
        self.schema = schema
        self.required = required
        self.summary = summary
    }

    public static func == (lhs: QueryParameter, rhs: QueryParameter) -> Bool { lhs.name == rhs.name }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// The HTTP methods the API uses.
public enum WireMethod: String, Sendable, CaseIterable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
}
