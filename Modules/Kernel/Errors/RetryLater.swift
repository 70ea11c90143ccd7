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

/// Waits between attempts at something that failed for now (a server that cannot be reached):
/// a random time up to a ceiling that starts at 0.5 s and doubles with each failure up to 20 s
/// ("full jitter"), so that many clients coming back at once spread out.
public enum Backoff {
    /// The wait after `failures` failures in a row (at least 1).
    public static func delay(afterFailures failures: Int) -> Duration {
        let ceiling = min(20.0, 0.5 * Double(1 << min(max(failures, 1) - 1, 6)))
        return .seconds(Double.random(in: 0...ceiling))
    }
}
