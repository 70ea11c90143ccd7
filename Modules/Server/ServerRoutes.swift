import AuthServer
import ChatServer
import ConversationListServer
import FilesServer
import Foundation
import Hummingbird
import Kernel
import ProfileServer
import SearchServer
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
    /// The open events sockets, a service of the application, drained when the process is told
    /// to stop (`OpenSockets.Drain`).
    let sockets: OpenSockets
    /// Who may open an events socket, for the connections' upgrade.
    let admission: EventSocketAdmission

    /// Where a load balancer asks whether the instance serves: 200 with `{"status":"serving"}`
    /// when its store answers and it takes sockets; 503 with `draining` or `store unreachable`.
    public static let healthPath = "/v1/health"

    /// Registers everything over `graph`; `sessionSweep` is how often each open events socket's
    /// session is checked again, `pingInterval` how long one may be silent before it is pinged,
    /// `queueFrames` how many frames one may have waiting (`OpenSockets`); a request from one of
    /// `proxies` is from the client its `X-Forwarded-For` names; one account's requests, HTTP and
    /// over its events sockets, are served at most `requestsAtOnce` at once.
    public init(
        graph: ServiceGraph, signInLimits: SignInLimits = SignInLimits(), sessionSweep: Duration = .seconds(30),
        pingInterval: Duration = EventSocketProtocol.pingInterval, queueFrames: Int = EventSocketProtocol.queueFrames,
        proxies: ClientAddress.TrustedProxies = .none, requestsAtOnce: Int = AccountRequests.productLimit
    ) throws {
        sockets = OpenSockets(sessionEnds: graph.sessionEnds(), sessionSweep: sessionSweep, pingInterval: pingInterval, queueFrames: queueFrames)
        let router = Router(context: APIRequestContext.self)
        let table = RouteTable()
        router.middlewares.add(ErrorMiddleware(routes: table))
        let requests = AccountRequests(limit: requestsAtOnce)
        let routes = APIRoutes(router: router, table: table, proxies: proxies, requests: requests) { token in graph.caller(token: token) }
        AuthRoutes(accounts: graph.accounts, limits: signInLimits).add(to: routes)
        AdminRoutes(admin: { graph.admin(for: $0) }, reporting: { graph.reports(for: $0) }).add(to: routes)
        BotRoutes(bots: { graph.bots(for: $0) }, post: { try await graph.post($1, toHook: $0.hook, secret: $0.secret) }).add(to: routes)
        ProfileRoutes { graph.services(for: $0).profiles }.add(to: routes)
        ConversationListRoutes { graph.services(for: $0).conversations }.add(to: routes)
        ChatRoutes(service: { graph.services(for: $0).chat }, events: { graph.services(for: $0).events }, typing: { graph.services(for: $0).typing })
            .add(to: routes)
        SearchRoutes { graph.services(for: $0).search }.add(to: routes)
        FilesRoutes { graph.services(for: $0).files }.add(to: routes)
        endpoints = routes.endpoints

        let document = try OpenAPIDocument.json(for: endpoints)
        self.document = document
        router.get(RouterPath(OpenAPIDocument.path)) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: document)))
        }
        table.add("GET", OpenAPIDocument.path)
        let sockets = sockets
        router.get(RouterPath(Self.healthPath)) { _, _ -> Response in
            let status =
                if sockets.isDraining { "draining" } else if await graph.storeAnswers(within: .seconds(2)) { "serving" } else { "store unreachable" }
            let body = ByteBuffer(string: #"{"status":"\#(status)"}"#)
            return Response(
                status: status == "serving" ? .ok : .serviceUnavailable, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: .init(byteBuffer: body))
        }
        table.add("GET", Self.healthPath)
        ServerMetrics.serve(on: router, graph: graph)
        table.add("GET", ServerMetrics.path)
        table.add("GET", EventSocketProtocol.path)
        let admission = try EventSocketAdmission(graph: graph, sockets: sockets, requests: requests, socketRequests: routes.socketRequests)
        self.admission = admission
        // Reached by a request that is not an upgrade: the same checks, then 426.
        router.get(RouterPath(EventSocketProtocol.path)) { request, _ -> Response in
            try await admission.admit(authorization: request.headers[.authorization], uri: request.uri.description).reservation.release()
            throw HTTPError(
                .upgradeRequired, headers: [.upgrade: "websocket"], message: "\(EventSocketProtocol.path) is a WebSocket: open it with an upgrade")
        }
        self.router = router
    }
}
