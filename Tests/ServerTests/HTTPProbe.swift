import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TestSupport

/// Raw HTTP requests to a test server, for what a well-behaved client never sends: over the
/// network to a server's URL, or straight to an in-process router (`InProcessServer.router`).
struct HTTPProbe: Sendable {
    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: Data

        /// The body as JSON, or `nil`.
        var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }
        /// `error.kind` of an error body.
        var errorKind: String? { (json?["error"] as? [String: Any])?["kind"] as? String }
    }

    private enum Transport: Sendable {
        case network(base: String)
        case router(any TestClientProtocol)
    }

    private let transport: Transport

    /// A probe of the server at `base` (`http://host:port`).
    init(base: String) { transport = .network(base: base) }

    /// A probe of a router under test, with no connection.
    init(router client: any TestClientProtocol) { transport = .router(client) }

    func send(_ method: String, _ path: String, token: String? = nil, body: Data? = nil, headers: [String: String] = [:]) async throws -> Answer {
        var headers = headers
        if let token { headers["Authorization"] = "Bearer \(token)" }
        switch transport {
        case .network(let base): return try await send(method, base + path, body: body, headers: headers)
        case .router(let client):
            guard let method = HTTPRequest.Method(method) else { throw ProbeError(description: "\(method) is not a method") }
            var fields = HTTPFields()
            for (name, value) in headers { if let name = HTTPField.Name(name) { fields[name] = value } }
            let response = try await client.execute(uri: path, method: method, headers: fields, body: body.map { ByteBuffer(bytes: $0) })
            return Answer(
                status: response.status.code,
                headers: Dictionary(response.headers.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { first, _ in first }),
                body: Data(response.body.readableBytesView))
        }
    }

    private func send(_ method: String, _ url: String, body: Data?, headers: [String: String]) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 16 * 1_024 * 1_024)
        return Answer(
            status: Int(response.status.code),
            headers: Dictionary(response.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first }),
            body: Data(bytes.readableBytesView))
    }

    /// `send` from another loopback address (`127.0.0.2`…), as another client would: one
    /// request, `Connection: close`, over a `SilentSocket` bound to that address (the HTTP client
    /// cannot choose its source address).
    func send(
        _ method: String, _ path: String, token: String? = nil, json: [String: Any], from source: String,
        headers: [String: String] = [:]
    ) async throws -> Answer {
        guard case .network(let base) = transport, let port = URL(string: base)?.port else {
            throw ProbeError(description: "a router has no addresses to send from")
        }
        let body = try JSONSerialization.data(withJSONObject: json)
        let head =
            "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n"
            + (token.map { "Authorization: Bearer \($0)\r\n" } ?? "") + headers.map { "\($0.key): \($0.value)\r\n" }.joined()
            + "Content-Length: \(body.count)\r\n\r\n"
        let reply = try await SilentSocket.answer(to: Data(head.utf8) + body, port: port, from: source)
        guard let end = reply.firstRange(of: Data("\r\n\r\n".utf8)) else { throw ProbeError(description: "no answer from \(source)") }
        let lines = String(decoding: reply[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let headers = Dictionary(
            lines.dropFirst().compactMap { line -> (String, String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }, uniquingKeysWith: { first, _ in first })
        return Answer(status: status, headers: headers, body: Data(reply[end.upperBound...]))
    }

    func send(_ method: String, _ path: String, token: String? = nil, json: [String: Any]) async throws -> Answer {
        try await send(method, path, token: token, body: try JSONSerialization.data(withJSONObject: json))
    }

    /// Starts the one-to-one of the user of `token` with `userID`; its id.
    func startDirect(_ token: String, with userID: String) async throws -> String {
        let answer = try await send("POST", "/v1/conversations/direct", token: token, json: ["userID": userID])
        guard let id = answer.json?["id"] as? String else { throw ProbeError(description: "a one-to-one answered \(answer.status)") }
        return id
    }

    /// Signs a new user up; returns the id and token.
    func signUp(_ name: String) async throws -> (id: String, token: String) {
        let answer = try await send(
            "POST", "/v1/auth/signup",
            json: [
                "email": "\(name.lowercased())-\(UUID().uuidString.prefix(8))@example.com", "displayName": name, "password": "password-\(name)",
            ])
        guard answer.status == 201, let token = answer.json?["token"] as? String,
            let id = (answer.json?["account"] as? [String: Any])?["id"] as? String
        else {
            throw ProbeError(description: "sign-up answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return (id, token)
    }
}

struct ProbeError: Error, CustomStringConvertible {
    let description: String
}
