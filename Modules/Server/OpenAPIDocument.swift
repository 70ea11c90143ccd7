import Foundation
import Kernel

/// The OpenAPI 3.1 description of the HTTP API, made from the same endpoint declarations the
/// routes are registered from, so the document cannot list a route the server lacks or miss one.
enum OpenAPIDocument {
    /// Where the document is served.
    static let path = "/v1/openapi.json"

    /// The document for `endpoints`, plus the document itself, the health check, the metrics and the events socket.
    static func json(for endpoints: [EndpointDescription]) throws -> Data {
        var paths: [String: [String: Any]] = [:]
        for endpoint in endpoints {
            paths[endpoint.path, default: [:]][endpoint.method.rawValue.lowercased()] = operation(endpoint)
        }
        paths[path] = [
            "get": [
                "operationId": "openapi", "summary": "This document",
                "responses": ["200": ["description": "the OpenAPI document", "content": ["application/json": ["schema": ["type": "object"]]]]],
            ]
        ]
        let health: [String: Any] = [
            "description": "{\"status\": \"serving\"}, or \"draining\" or \"store unreachable\" with 503",
            "content": ["application/json": ["schema": ["type": "object"]]],
        ]
        paths[ServerRoutes.healthPath] = [
            "get": [
                "operationId": "health", "summary": "Whether this instance serves, for load balancers",
                "responses": ["200": health, "503": health],
            ]
        ]
        paths[ServerMetrics.path] = [
            "get": [
                "operationId": "metrics", "summary": "This instance's metrics in Prometheus' text format, for operators",
                "responses": ["200": ["description": "the metrics", "content": ["text/plain": ["schema": ["type": "string"]]]]],
            ]
        ]
        paths[EventSocketProtocol.path] = [
            "get": [
                "operationId": "events", "summary": "The live events socket: a WebSocket upgrade; see docs/protocol.md",
                "security": [["bearer": [String]()]],
                "responses": [
                    "101": ["description": "switched to the WebSocket protocol"], "200": ["description": "not an upgrade request"],
                    "default": errorResponse,
                ],
            ]
        ]
        let document: [String: Any] = [
            "openapi": "3.1.0",
            "info": [
                "title": "MessageAI", "version": "1",
                "description": "The MessageAI server's HTTP API; errors are {\"error\": {\"kind\", \"message\"}}.",
            ],
            "paths": paths,
            "components": ["securitySchemes": ["bearer": ["type": "http", "scheme": "bearer"]]],
        ]
        return try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    private static var errorResponse: [String: Any] {
        ["description": "the failure", "content": ["application/json": ["schema": WireError.schema.jsonSchema]]]
    }

    /// A body's media type: a file's bytes (`ByteStream`) are sent as they are, anything else as JSON.
    private static func mediaType(of schema: WireSchema) -> String {
        schema == ByteStream.schema ? ByteStream.mediaType : "application/json"
    }

    private static func operation(_ endpoint: EndpointDescription) -> [String: Any] {
        var parameters: [[String: Any]] = EndpointDescription.parameters(in: endpoint.path).map { name in
            ["name": name, "in": "path", "required": true, "schema": WireSchema.identifier.jsonSchema]
        }
        parameters += endpoint.query.map { parameter in
            [
                "name": parameter.name, "in": "query", "required": parameter.required, "description": parameter.summary,
                "schema": parameter.schema.jsonSchema,
            ]
        }
        let success: [String: Any] =
            endpoint.reply.map { schema in
                ["description": "success", "content": [mediaType(of: schema): ["schema": schema.jsonSchema]]]
            } ?? ["description": "success, no body"]
        var operation: [String: Any] = [
            "operationId": endpoint.method.rawValue.lowercased() + endpoint.path.replacing(/[^A-Za-z0-9]+/, with: "_"),
            "summary": endpoint.summary,
            "parameters": parameters,
            "responses": ["\(endpoint.successStatus)": success, "default": errorResponse],
        ]
        if let body = endpoint.body {
            operation["requestBody"] = ["required": true, "content": [mediaType(of: body): ["schema": body.jsonSchema]]]
        }
        if endpoint.needsSession { operation["security"] = [["bearer": [String]()]] }
        return operation
    }
}
