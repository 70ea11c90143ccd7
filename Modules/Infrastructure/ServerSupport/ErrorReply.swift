import Foundation
import Hummingbird
import Kernel
import Metrics

/// The API's answer to a refusal a handler throws: an `AppError` with the status of its kind,
/// a `RetryLater` as 429 with `Retry-After`; the body is the `WireError`.
public struct ErrorReply: Sendable {
    /// The HTTP status.
    public let status: Int
    /// Headers the status needs besides the body's (`Retry-After`).
    public let headers: HTTPFields
    /// The error body.
    public let error: WireError

    /// The reply to `error`: the status of its kind.
    public init(_ error: AppError) { self.init(status: WireError.status(for: error.kind), error: WireError(error)) }

    /// The reply to `error`; `nil` for an error that is not a refusal (a failure of the server).
    /// Each refusal counts in the process's metrics, by kind (`messageai_refusals_total`).
    public init?(_ error: any Error) {
        switch error {
        case let error as AppError:
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

    private init(status: Int, headers: HTTPFields = [:], error: WireError) {
        self.status = status
        self.headers = headers
        self.error = error
    }

    /// The reply as a router response.
    public func response() throws -> Response { try WireResponse.make(error, status: status, headers: headers) }
}
