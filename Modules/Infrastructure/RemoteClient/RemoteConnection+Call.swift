import AsyncHTTPClient
import Foundation
import Kernel
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

extension RemoteConnection {
    /// Largest answer body read, in bytes.
    public static let maxReplyBytes = 64 * 1_024 * 1_024

    /// Calls `endpoint` at `path` with `query` (parameters the endpoint declares) and decodes its
    /// reply; a failure answer becomes the `AppError` the server sent, and a server that cannot
    /// be reached in time an `.unavailable` naming it.
    public func call<Body, Reply, Path>(
        _ endpoint: Endpoint<Body, Reply, Path>, path: Path, query: [QueryParameter: String] = [:],
        body: Body, token: String?
    ) async throws -> Reply {
        var request = try self.request(endpoint, path: path, query: query, token: token)
        if Body.self != NoContent.self {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try WireFormat.encoder().encode(body)))
        }
        let (status, bytes) = try await exchange(request)
        return try reply(status: status, bytes)
    }

    /// The request of `endpoint` at `path` with `query` (parameters it declares) and `token`, without a body.
    func request<Body, Reply, Path>(
        _ endpoint: Endpoint<Body, Reply, Path>, path: Path, query: [QueryParameter: String], token: String?
    ) throws -> HTTPClientRequest {
        var url = server.url(endpoint.path(path))
        if let stray = query.keys.first(where: { !endpoint.spec.query.contains($0) }) {
            throw AppError(.internal, "\(endpoint.spec.path) reads no query parameter \(stray.name)")
        }
        if !query.isEmpty {
            var parts = URLComponents()
            parts.queryItems = query.sorted { $0.key.name < $1.key.name }.map { URLQueryItem(name: $0.key.name, value: $0.value) }
            url += "?" + (parts.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        }
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: endpoint.spec.method.rawValue)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        return request
    }

    /// The reply of an answer of `status` with body `bytes`: decoded, or the `AppError` the server sent.
    func reply<Reply: WireType>(status: Int, _ bytes: Data) throws -> Reply {
        guard (200..<300).contains(status) else {
            let failure =
                (try? WireFormat.decoder().decode(WireError.self, from: bytes))
                ?? WireError(AppError(WireError.kind(for: status), "the server answered \(status)"))
            throw failure.appError(status: status)
        }
        if let empty = NoContent() as? Reply { return empty }
        do {
            return try WireFormat.decoder().decode(Reply.self, from: bytes)
        } catch {
            throw AppError(
                .unavailable, "the server at \(server) answered in a form this client does not understand; is it a MessageAI server of this version?")
        }
    }

    /// Calls `endpoint`, whose path has no parameters (see the other `call`).
    public func call<Body, Reply>(
        _ endpoint: Endpoint<Body, Reply, PathParameters.None>, query: [QueryParameter: String] = [:],
        body: Body, token: String?
    ) async throws -> Reply {
        try await call(endpoint, path: PathParameters.None(), query: query, body: body, token: token)
    }

    /// The status of a plain `GET` of `path` with `token`, or `nil` when there is no answer.
    func status(of path: String, token: String) async -> Int? {
        var request = HTTPClientRequest(url: server.url(path))
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        return try? await exchange(request).0
    }

    /// The status and body of the answer to `request`, which must come whole within the timeout
    /// (`whole` false: a file's bytes, which may take longer, but never stall longer).
    func exchange(_ request: HTTPClientRequest, whole: Bool = true) async throws -> (Int, Data) {
        try await answering {
            let response = try await execute(request, whole: whole)
            let body = try await response.body.collect(upTo: Self.maxReplyBytes)
            return (Int(response.status.code), Data(body.readableBytesView))
        }
    }

    /// The response to `request`, its body still to come: within the timeout when `whole`, else
    /// within a day, the read timeout (the same seconds) ending any stall.
    func execute(_ request: HTTPClientRequest, whole: Bool) async throws -> HTTPClientResponse {
        let seconds = max(1, timeout.components.seconds)
        return try await answering { try await http.execute(request, timeout: whole ? .seconds(seconds) : .hours(24)) }
    }

    /// `work`'s outcome, its failures said for people: no answer in time, too large an answer, a server that cannot be reached.
    private func answering<T>(_ work: () async throws -> T) async throws -> T {
        let seconds = timeout.components.seconds
        do {
            return try await work()
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw unreachable("no answer within \(seconds) s")
        } catch is NIOTooManyBytesError {
            throw AppError(.unavailable, "the server at \(server) sent an answer larger than \(Self.maxReplyBytes) bytes")
        } catch let error as AppError {
            throw error
        } catch {
            throw unreachable(Self.reason(error))
        }
    }

    /// A short reason for a connection failure, found from the error's type: NIO's connection
    /// and socket errors (by errno), TLS errors, and AsyncHTTPClient's own.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let failure as NIOConnectionError:
            if let first = failure.connectionErrors.first { return reason(first.error) }
            return failure.dnsAError != nil || failure.dnsAAAAError != nil ? unresolved : String(describing: failure).prefix(160).description
        case let failure as IOError:
            return reason(errno: failure.errnoCode)
        case is SocketAddressError.UnknownHost:
            return unresolved
        case let failure as ChannelError:
            switch failure {
            case .connectTimeout: return "timed out"
            case .eof, .ioOnClosedChannel, .outputClosed, .alreadyClosed: return closed
            default: return String(describing: failure).prefix(160).description
            }
        case let failure as NIOSSLError:
            switch failure {
            case .uncleanShutdown: return closed
            // BoringSSL's reason codes are not public: its verification failure is known by its name.
            case .handshakeFailed(.sslError(let errors)) where errors.contains(where: { $0.description.contains("CERTIFICATE_VERIFY_FAILED") }):
                return "TLS failed: its certificate is not trusted here (trust it with remote.certificates)"
            default: return "TLS failed"
            }
        case let failure as NIOSSLExtraError where failure == .failedToValidateHostname:
            return "TLS failed: its certificate is for another host name"
        case let failure as HTTPClientError:
            switch failure {
            case .remoteConnectionClosed: return closed
            case .connectTimeout, .readTimeout, .deadlineExceeded, .tlsHandshakeTimeout: return "timed out"
            default: return String(describing: failure).prefix(160).description
            }
        default:
            return String(describing: error).prefix(160).description
        }
    }

    private static let unresolved = "the host name does not resolve"
    private static let closed = "it closed the connection (is it an https server, reached with http?)"

    /// The reason for a socket error `errno`.
    private static func reason(errno: Int32) -> String {
        switch errno {
        case ECONNREFUSED: "connection refused"
        case ECONNRESET, EPIPE: closed
        case ETIMEDOUT: "timed out"
        case EHOSTUNREACH, ENETUNREACH: "no route to it"
        default: String(cString: strerror(errno))
        }
    }
}

extension RemoteConnection {
    /// Calls `endpoint` with the session token of `caller`.
    /// - Throws: `.notSignedIn` when the caller has no token, and whatever `call` throws.
    public func call<Body, Reply, Path>(
        _ endpoint: Endpoint<Body, Reply, Path>, path: Path, query: [QueryParameter: String] = [:],
        body: Body, as caller: Caller
    ) async throws -> Reply {
        guard let token = caller.token else { throw AppError.notSignedIn }
        return try await call(endpoint, path: path, query: query, body: body, token: token)
    }

    /// Calls `endpoint`, whose path has no parameters, with the session token of `caller`.
    public func call<Body, Reply>(
        _ endpoint: Endpoint<Body, Reply, PathParameters.None>, query: [QueryParameter: String] = [:],
        body: Body, as caller: Caller
    ) async throws -> Reply {
        try await call(endpoint, path: PathParameters.None(), query: query, body: body, as: caller)
    }

    /// The frames of the given `types` for `caller`'s session, decoded as `Frame`; a frame that
    /// does not decode (a newer version's) is skipped.
    public func frames<Frame: Decodable & Sendable>(_: Frame.Type, types: [String], as caller: Caller) async throws -> AsyncStream<Frame> {
        guard let token = caller.token else { throw AppError.notSignedIn }
        let decoder = WireFormat.decoder()
        return try await events(token: token).subscribe(Set(types)).compactMapped { frame in try? decoder.decode(Frame.self, from: frame) }
    }

    /// Sends `frame`, a request whose id is `id`, on `caller`'s events socket when this process
    /// has it open and ready, and returns the reply frame; `nil` otherwise, or when no reply
    /// comes (`EventSocket.request`): the caller then makes the request over HTTP.
    public func request(_ frame: some Encodable, id: String, as caller: Caller) async -> Data? {
        guard let token = caller.token, let socket = sockets.withLock({ $0[token] }),
            let data = try? WireFormat.encoder().encode(frame), data.count <= EventSocketProtocol.maxFrameBytes
        else { return nil }
        return await socket.request(String(decoding: data, as: UTF8.self), id: id)
    }

    /// A tick for every frame of `caller`'s session and after each reconnection (what changed
    /// while the socket was down is unknown); ticks that come while the reader is busy become one.
    public func ticks(as caller: Caller) async throws -> AsyncStream<Void> {
        guard let token = caller.token else { throw AppError.notSignedIn }
        return try await events(token: token).subscribe(nil, bufferingPolicy: .bufferingNewest(1)).mapped { _ in () }
    }
}
