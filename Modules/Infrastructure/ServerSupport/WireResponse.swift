import Hummingbird
import Kernel

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
}
