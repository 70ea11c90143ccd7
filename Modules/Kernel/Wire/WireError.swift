/// The body of every failed request, `{"error": {"kind": …, "message": …}}`, and the one table
/// between `AppError` kinds and HTTP statuses, used by the server to answer and by the client to
/// turn an answer back into the same error a local backend would throw.
public struct WireError: WireType, Equatable {
    /// The failure, as the client will rethrow it.
    public struct Detail: Codable, Sendable, Equatable {
        /// The `AppError` kind's name (`notFound`, `forbidden`…).
        public let kind: String
        /// The message for people.
        public let message: String

        /// The error a local backend would have thrown (`.internal` for a kind this build does not know).
        public var appError: AppError { AppError(AppError.Kind(rawValue: kind) ?? .internal, message) }
    }

    /// The failure.
    public let error: Detail

    /// The body for `error`.
    public init(_ error: AppError) { self.error = Detail(kind: error.kind.rawValue, message: error.message) }

    public static let schema = WireSchema.object(
        [
            (
                "error",
                .object(
                    [("kind", .enumeration(AppError.Kind.allCases.map(\.rawValue))), ("message", .string(maxLength: 1_000))],
                    required: ["kind", "message"])
            )
        ], required: ["error"])

    /// The status a failure of `kind` is answered with.
    public static func status(for kind: AppError.Kind) -> Int {
        switch kind {
        case .usage, .invalidInput: 400
        case .notSignedIn, .invalidCredentials: 401
        case .forbidden: 403
        case .notFound: 404
        case .conflict: 409
        case .gone: 410
        case .tooLarge: 413
        case .rateLimited: 429
        case .unavailable: 503
        case .internal: 500
        }
    }

    /// The error a client raises for this body, or for `status` alone when the body's kind is
    /// unknown (a proxy's page, a newer server).
    public func appError(status: Int) -> AppError {
        AppError(AppError.Kind(rawValue: error.kind) ?? Self.kind(for: status), error.message)
    }

    /// The kind a status stands for when no body says.
    public static func kind(for status: Int) -> AppError.Kind {
        switch status {
        case 400, 414, 431: .invalidInput
        case 413: .tooLarge
        case 401: .notSignedIn
        case 403: .forbidden
        case 404: .notFound
        case 405, 426: .usage
        case 409: .conflict
        case 410: .gone
        case 429: .rateLimited
        case 502, 503, 504: .unavailable
        default: .internal
        }
    }
}
