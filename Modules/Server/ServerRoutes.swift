import AuthServer
import ChatServer
import ConversationListServer
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Kernel
import ProfileServer
import ServerSupport
import ServiceGraph

/// Every route of the server over one service graph: the four features' endpoints, the API
/// document and the events socket, behind the error middleware.
public struct ServerRoutes {
    /// The router to serve.
    public let router: Router<APIRequestContext>
    /// The endpoints registered, in the order the document lists them.
    public let endpoints: [EndpointDescription]
    /// The OpenAPI document served at `/v1/openapi.json`.
    public let document: Data
    /// The open events sockets; run it as a service after the server's, so that a shutdown
    /// closes them first.
    let sockets: OpenSockets

    /// Registers everything over `graph`; `sessionCheck` is how often the open events sockets'
    /// sessions are checked (`OpenSockets`).
    public init(graph: ServiceGraph, signInLimits: SignInLimits = SignInLimits(), sessionCheck: Duration = .seconds(1)) throws {
        sockets = OpenSockets(sessionCheck: sessionCheck)
        let router = Router(context: APIRequestContext.self)
        let table = RouteTable()
        router.middlewares.add(ErrorMiddleware(routes: table))
        let caller: @Sendable (Request) -> Caller = { graph.caller(token: APIRoutes.bearerToken(of: $0)) }
        let routes = APIRoutes(router: router, table: table) { token in graph.caller(token: token) }
        let chat = ChatRoutes { graph.services(for: $0).chat }
        AuthRoutes(accounts: graph.accounts, limits: signInLimits).add(to: routes)
        ProfileRoutes { graph.services(for: $0).profiles }.add(to: routes)
        ConversationListRoutes { graph.services(for: $0).conversations }.add(to: routes)
        chat.add(to: routes)
        endpoints = routes.endpoints

        let document = try OpenAPIDocument.json(for: endpoints)
        self.document = document
        router.get(RouterPath(OpenAPIDocument.path)) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: document)))
        }
        table.add("GET", OpenAPIDocument.path)
        table.add("GET", EventSocketProtocol.path)
        let sockets = sockets
        router.ws(RouterPath(EventSocketProtocol.path)) { request, _ in
            let user = try await caller(request).id()
            _ = try Self.resumeCursor(of: request)
            guard sockets.count(of: user) < EventSocketProtocol.socketsPerUser else {
                throw RetryLater(AppError(.rateLimited, "this account has \(EventSocketProtocol.socketsPerUser) live connections open already; close one"),
                                 seconds: 5)
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            let connection = EventConnection(caller: caller(context.request), after: try Self.resumeCursor(of: context.request),
                                             channel: context.requestContext.channel, sockets: sockets, chat: chat)
            try await connection.run(inbound: inbound, outbound: outbound)
        }
        self.router = router
    }

    /// The `after` cursor of an events socket request, if any.
    /// - Throws: `.invalidInput` for one that is not a cursor.
    private static func resumeCursor(of request: Request) throws -> EventCursor? {
        try request.uri.queryParameters["after"].map { try EventCursor(parsing: String($0)) }
    }
}
