
/// A refusal that tells the client when to try again (429 with `Retry-After`).
public struct RetryLater: Error, Sendable {
    /// The error the client sees.
    public let error: AppError
    /// Whole seconds to wait.
    public let seconds: Int

    /// Creates the refusal.
    public init(_ error: AppError, seconds: Int) {
        self.error = error
        self.seconds = seconds
    }
}
