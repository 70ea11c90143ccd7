import Hummingbird
import Kernel
import NIOCore

/// Responses with wire-encoded JSON bodies (a streaming route makes its JSON reply with it too).
public enum WireResponse {
    /// `value` as JSON with `status`, or an empty body for `NoContent`.
    public static func make<Value: WireType>(_ value: Value, status: Int, headers: HTTPFields = [:]) throws -> Response {
        var headers = headers
        guard Value.self != NoContent.self else { return Response(status: .init(code: status), headers: headers) }
        headers[.contentType] = "application/json; charset=utf-8"
        let data = try WireFormat.encoder().encode(value)
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A body of `chunks` as they come, the next one read only once the last reached `connection`
    /// (the request's event loop): Hummingbird's writer takes a chunk whenever its connection was
    /// writable when last asked, and while that loop waits for a processor the reader ran on and
    /// queued tens of MiB (a 1 GiB download grew the server by 18–38 MiB). A turn of the loop
    /// after each write lets it take the chunk first, so that a full connection holds the reader.
    public static func streaming(
        _ chunks: some AsyncSequence<[UInt8], any Error> & Sendable, on connection: any EventLoop
    ) -> ResponseBody {
        ResponseBody { writer in
            var iterator = chunks.makeAsyncIterator()
            while let chunk = try await iterator.next() {
                try await writer.write(ByteBuffer(bytes: chunk))
                try await connection.submit {}.get()
            }
            try await writer.finish(nil)
        }
    }
}
