import AsyncHTTPClient
import Foundation
import Kernel
import NIOCore

extension RemoteConnection {
    /// Calls `endpoint` with `bytes` as its body, streamed as they come (`size`, when known, as
    /// its `Content-Length`), with the session token of `caller`, and decodes its reply.
    /// - Throws: the `AppError` the server sent (413 is `.tooLarge`, 429 `.rateLimited`), and what
    ///   `bytes` throws.
    public func upload<Reply, Path>(
        _ endpoint: Endpoint<ByteStream, Reply, Path>, path: Path, query: [QueryParameter: String],
        bytes: any AsyncSequence<[UInt8], any Error> & Sendable, size: Int64?, as caller: Caller
    ) async throws -> Reply {
        guard let token = caller.token else { throw AppError.notSignedIn }
        var request = try self.request(endpoint, path: path, query: query, token: token)
        request.headers.add(name: "Content-Type", value: ByteStream.mediaType)
        request.body = .stream(ChunkMap(bytes) { ByteBuffer(bytes: $0) }, length: size.map { .known($0) } ?? .unknown)
        let (status, body) = try await exchange(request, whole: false)
        return try reply(status: status, body)
    }

    /// The bytes `endpoint` answers with, `count` of them from `offset` (HTTP's `Range`), as they
    /// come, with the session token of `caller`.
    /// - Throws: the `AppError` the server sent.
    public func download<Path>(
        _ endpoint: Endpoint<NoContent, ByteStream, Path>, path: Path, range: (offset: Int64, count: Int64), as caller: Caller
    ) async throws -> any AsyncSequence<[UInt8], any Error> & Sendable {
        guard let token = caller.token else { throw AppError.notSignedIn }
        guard range.count > 0 else { return AsyncThrowingStream<[UInt8], any Error> { $0.finish() } }
        var request = try self.request(endpoint, path: path, query: [:], token: token)
        request.headers.add(name: "Range", value: "bytes=\(range.offset)-\(range.offset + range.count - 1)")
        let response = try await execute(request, whole: false)
        guard response.status == .partialContent else {
            guard response.status != .ok else { throw AppError(.unavailable, "the server at \(server) sent a whole file for a range") }
            let body = try await response.body.collect(upTo: 64 * 1_024)
            let _: NoContent = try reply(status: Int(response.status.code), Data(body.readableBytesView))
            throw AppError(.unavailable, "the server at \(server) answered \(response.status.code) for a file's bytes")
        }
        return response.body.map { Array($0.readableBytesView) }
    }
}
