import AuthAPI
import ChatAPI
import ConversationListAPI
import FilesAPI
import Foundation
import Hummingbird
import Kernel
import MessageAIServer
import ProfileAPI
import SearchAPI
import ServiceGraph
import Testing

/// The API document says what the server really serves.
@Suite("API document", .timeLimit(.minutes(1)))
struct APIDocumentTests {
    @Test("the OpenAPI document lists exactly the routes the router has")
    func documentMatchesRouter() throws {
        let routes = try ServerRoutes(graph: try ServiceGraph(GraphOptions(backend: .memory, sqlitePath: "/dev/null")))
        let served = Set(
            routes.router.routes.map { route in
                "\(route.method.rawValue) " + route.path.description.replacing(/:(\w+)/) { "{\($0.output.1)}" }
            })
        let document = try #require(try JSONSerialization.jsonObject(with: routes.document) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let documented = Set(paths.flatMap { path, operations in operations.keys.map { "\($0.uppercased()) \(path)" } })
        #expect(documented == served)
        let declared =
            AuthAPI.endpoints + AdminAPI.endpoints + BotAPI.endpoints + ProfileAPI.endpoints + ConversationListAPI.endpoints + ChatAPI.endpoints
            + SearchAPI.endpoints
            + FilesAPI.endpoints
        // Every declared endpoint, the document itself, the health check, the metrics and the events socket.
        #expect(served.count == declared.count + 4)
    }

    @Test("each endpoint's path template names exactly the parameters its path type fills, in order")
    func pathTypesMatchTemplates() {
        for spec in AuthAPI.endpoints + AdminAPI.endpoints + BotAPI.endpoints + ProfileAPI.endpoints + ConversationListAPI.endpoints
            + ChatAPI.endpoints
            + SearchAPI.endpoints
            + FilesAPI.endpoints
        {
            #expect(EndpointDescription.parameters(in: spec.path) == spec.pathParameters, "\(spec.method) \(spec.path)")
        }
    }

    @Test("the server's router serves that document at its path, to anyone")
    func documentServed() async throws {
        let expected = try ServerRoutes(graph: try ServiceGraph(GraphOptions(backend: .memory, sqlitePath: "/dev/null"))).document
        let served = try await InProcessServer.router { probe in try await probe.send("GET", "/v1/openapi.json") }
        #expect(served.status == 200 && served.headers["content-type"] == "application/json")
        #expect(served.body == expected)
    }
}
