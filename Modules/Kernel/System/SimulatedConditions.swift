/// Latency and failures that in-memory services add on purpose, so that loading and failed
/// states can be seen and tested without a real backend.
public struct SimulatedConditions: Sendable {
    /// Delay added to every call.
    public var latency: Duration
    /// Probability (0…1) that a call fails with `AppError.unavailable`.
    public var failureRate: Double

    /// No delay, no failures.
    public static let none = SimulatedConditions(latency: .zero, failureRate: 0)

    /// Creates conditions with the given latency and failure rate.
    public init(latency: Duration, failureRate: Double) {
        self.latency = latency
        self.failureRate = min(max(failureRate, 0), 1)
    }

    /// Waits for the latency, then fails with the configured probability.
    public func apply() async throws {
        if latency > .zero { try await Task.sleep(for: latency) }
        if failureRate > 0, Double.random(in: 0..<1) < failureRate {
            throw AppError(.unavailable, "simulated failure (memory.failure-rate is \(failureRate))")
        }
    }
}
