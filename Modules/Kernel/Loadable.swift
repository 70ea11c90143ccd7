/// The state of something a view model loads: the four states exclude each other.
public enum Loadable<Value: Sendable>: Sendable {
    /// Nothing asked for yet (or the load was cancelled).
    case idle
    /// Waiting for the service.
    case loading
    /// The value arrived.
    case loaded(Value)
    /// The load failed with an error for people.
    case failed(AppError)

    /// The loaded value, if any.
    public var value: Value? {
        if case .loaded(let value) = self { value } else { nil }
    }

    /// The error, if the load failed.
    public var error: AppError? {
        if case .failed(let error) = self { error } else { nil }
    }

    /// Runs `operation` and turns its outcome into a state. Cancellation is not an error: it
    /// gives `.idle`.
    public static func from(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Value
    ) async -> Loadable<Value> {
        do {
            return .loaded(try await operation())
        } catch is CancellationError {
            return .idle
        } catch {
            return Task.isCancelled ? .idle : .failed(AppError(error))
        }
    }
}

extension Loadable: Equatable where Value: Equatable {}
