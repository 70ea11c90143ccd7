import Foundation
import HTTPTypes
import Hummingbird
import Kernel
import Logging
import Metrics

/// The API's answer to a refusal a handler throws: an `AppError` with the status of its kind,
/// a `RetryLater` as 429 with `Retry-After`; the body is the `WireError`. A failure of the
/// server's own is answered by `failure(_:id:logger:_:metadata:)`.
public struct ErrorReply: Sendable {
    /// The HTTP status.
    public let status: Int
    /// Headers the status needs besides the body's (`Retry-After`).
    public let headers: HTTPFields
    /// The error body.
    public let error: WireError

    /// The reply to `error`: the status of its kind.
    public init(_ error: AppError) { self.init(status: WireError.status(for: error.kind), error: WireError(error)) }

    /// The reply to `error`; `nil` for a failure of the server (an error that is not a refusal,
    /// or an `AppError` of kind `.internal`, whose words may be a database's).
    /// Each refusal counts in the process's metrics, by kind (`messageai_refusals_total`).
    public init?(_ error: any Error) {
        switch error {
        case let error as AppError where error.kind != .internal:
            self.init(error)
        case let refusal as RetryLater:
            self.init(status: 429, headers: [.retryAfter: "\(refusal.seconds)"], error: WireError(refusal.error))
        default:
            return nil
        }
        Self.count(self.error.error.kind)
    }

    /// Counts a refusal of `kind` (an `AppError.Kind`'s name) in the process's metrics.
    public static func count(_ kind: String) {
        Counter(label: "messageai_refusals_total", dimensions: [("kind", kind)]).increment()
    }

    /// The header that names a failure's id (`failure(_:id:logger:_:metadata:)`).
    public static let requestIDHeader = HTTPField.Name("X-Request-ID")!

    /// The answer to a failure of the server's own, `error`: a 500 that names `id` (in the body
    /// and `X-Request-ID`) and nothing of the failure, which goes to `logger` at error level as
    /// `message` with that id (`hb.request.id`, the key of Hummingbird's request ids) and `metadata`
    /// (the request's path and method).
    public static func failure(_ error: any Error, id: String, logger: Logger, _ message: Logger.Message, metadata: Logger.Metadata = [:])
        -> ErrorReply
    {
        var logger = logger
        logger[metadataKey: "hb.request.id"] = "\(id)"
        logger.error(message, metadata: metadata.merging(["error": "\(String(reflecting: error))"]) { $1 })
        return ErrorReply(
            status: 500, headers: [requestIDHeader: id],
            error: WireError(AppError(.internal, "the server failed (request \(id)); the failure is in its log under that id")))
    }

    /// The answer to `error` outside an HTTP request (an events socket's upgrade or request): a
    /// refusal as it is, or a failure of the server's own logged (`failure`) under a new id like
    /// those of Hummingbird's requests.
    public static func answer(_ error: any Error, logger: Logger, _ message: Logger.Message, metadata: Logger.Metadata = [:]) -> ErrorReply {
        ErrorReply(error) ?? failure(error, id: RequestID().description, logger: logger, message, metadata: metadata)
    }

    private init(status: Int, headers: HTTPFields = [:], error: WireError) {
        self.status = status
        self.headers = headers
        self.error = error
    }

    /// The reply as a router response.
    public func response() throws -> Response { try WireResponse.make(error, status: status, headers: headers) }
}
