import Foundation
import HTTPTypes
import Hummingbird
import Kernel

/// Registers endpoints on the router: finds the caller from the bearer token, counts the request
/// among its account's (`AccountRequests`), decodes the body with the wire format, runs the
/// handler, encodes its reply with the endpoint's status; and remembers what it registered, so
/// the API document can be checked against the router.
public final class APIRoutes {
    /// The router the server serves.
    public let router: Router<APIRequestContext>
    /// Every method and path served, for the 405 answers.
    private let table: RouteTable
    private let callerForToken: @Sendable (String?) -> Caller
    private let proxies: ClientAddress.TrustedProxies
    private let requests: AccountRequests
    /// The endpoints registered so far.
    public private(set) var endpoints: [EndpointDescription] = []
    /// The requests registered so far for the events socket.
    public private(set) var socketRequests = SocketRequests()

    /// Creates the builder; `caller` turns a bearer token (or none) into the caller; a request
    /// from one of `proxies` is from the client its `X-Forwarded-For` names; one with a session
    /// is served within `requests`.
    public init(
        router: Router<APIRequestContext>, table: RouteTable, proxies: ClientAddress.TrustedProxies = .none, requests: AccountRequests,
        caller: @escaping @Sendable (String?) -> Caller
    ) {
        self.router = router
        self.table = table
        self.proxies = proxies
        self.requests = requests
        callerForToken = caller
    }

    /// Serves `endpoint` with `handler`.
    public func add<Body, Reply, Path>(
        _ endpoint: Endpoint<Body, Reply, Path>,
        handler: @escaping @Sendable (APICall<Body, Path>) async throws -> Reply
    ) {
        on(endpoint) { request, context, call in
            let body: Body = try await Self.decode(request, context: context)
            return try WireResponse.make(try await handler(call.carrying(body)), status: endpoint.spec.successStatus)
        }
    }

    /// Serves `endpoint`, whose request or reply body is a file's bytes (`ByteStream`), not
    /// JSON: `handler` reads the request's body as it comes (and its headers) and makes the
    /// response, streaming it, itself.
    public func add<Body, Reply, Path>(
        streaming endpoint: Endpoint<Body, Reply, Path>,
        handler: @escaping @Sendable (APICall<NoContent, Path>, Request) async throws -> Response
    ) {
        on(endpoint) { request, _, call in try await handler(call, request) }
    }

    /// Registers `endpoint` on the router: the caller from the bearer token, counted among its
    /// account's requests, and the path's and query's parameters, handed to `respond`.
    private func on<Body, Reply, Path>(
        _ endpoint: Endpoint<Body, Reply, Path>,
        respond: @escaping @Sendable (Request, APIRequestContext, APICall<NoContent, Path>) async throws -> Response
    ) {
        endpoints.append(endpoint.spec)
        table.add(endpoint.spec.method.rawValue, endpoint.spec.path)
        let path = RouterPath(endpoint.spec.path.replacing(/\{(\w+)\}/) { ":" + $0.output.1 })
        let (callerForToken, proxies, requests) = (callerForToken, proxies, requests)
        router.on(path, method: HTTPRequest.Method(rawValue: endpoint.spec.method.rawValue) ?? .get) { request, context in
            let token = Self.bearerToken(of: request)
            let (caller, user) = endpoint.spec.needsSession ? await Self.verified(callerForToken(token), token: token) : (.signedOut, nil)
            let serve = {
                let path = try Path { name in
                    guard let value = context.parameters.get(name) else { throw AppError(.invalidInput, "missing path parameter \(name)") }
                    return value
                }
                let query = Dictionary(
                    request.uri.queryParameters.map { (String($0.key), String($0.value)) }, uniquingKeysWith: { first, _ in first })
                let call = APICall(
                    body: NoContent(), caller: caller, token: token,
                    clientAddress: proxies.client(peer: context.peerAddress, forwardedFor: request.headers[values: .xForwardedFor]),
                    path: path, connection: context.connection, queryItems: query)
                return try await respond(request, context, call)
            }
            guard let user else { return try await serve() }
            return try await requests.serving(user, serve)
        }
    }

    /// Takes requests of `Receiver.Request.type` on the events socket, each socket's with the
    /// receiver `make` gives for its client.
    public func add<Receiver: SocketRequestReceiver>(socket make: @escaping @Sendable (SocketClient) -> Receiver) {
        socketRequests.add(make)
    }

    /// `caller` and its account, looked up before the request is read so that it counts among
    /// the account's; a caller whose token does not verify is kept with the refusal it got, for
    /// the handler to throw where it asks (as it would have without the count), and no account.
    private static func verified(_ caller: Caller, token: String?) async -> (Caller, UserID?) {
        do {
            return (caller, try await caller.principal().id)
        } catch {
            return (Caller(token: token) { throw error }, nil)
        }
    }

    /// The token of an `Authorization: Bearer <token>` header; `nil` when absent or of another scheme.
    public static func bearerToken(of request: Request) -> String? { bearerToken(inHeader: request.headers[.authorization]) }

    /// The token of an `Authorization` header's value `header`, the same way.
    public static func bearerToken(inHeader header: String?) -> String? {
        guard let header, header.count <= 256, header.lowercased().hasPrefix("bearer ") else { return nil }
        var token = header.dropFirst("bearer ".count).drop(while: \.isWhitespace)
        while token.last?.isWhitespace == true { token = token.dropLast() }
        return token.isEmpty ? nil : String(token)
    }

    private static func decode<Body: WireType>(_ request: Request, context: APIRequestContext) async throws -> Body {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        if let empty = NoContent() as? Body { return empty }
        do {
            return try WireFormat.decoder().decode(Body.self, from: Data(buffer.readableBytesView))
        } catch let DecodingError.keyNotFound(key, _) {
            throw AppError(.invalidInput, "the request body has no \(AppError.quoting(key.stringValue))")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw AppError(.invalidInput, "the request body's \(AppError.quoting(field)) has the wrong type")
        } catch {
            throw AppError(.invalidInput, "the request body is not the JSON this endpoint takes")
        }
    }
}

extension HTTPField.Name {
    /// `X-Forwarded-For`: the addresses a request came through, as proxies append them.
    public static var xForwardedFor: Self { .init("X-Forwarded-For") ?? .via }
}
