import Kernel

/// Lets a test mock tell the test it was called, then answer, fail, or wait until its task is
/// cancelled, so that view-model tests can check `loading` and cancellation without sleeping.
public final class CallGate: Sendable {
    /// What the mocked call does.
    public enum Behaviour: Sendable {
        /// Returns normally.
        case answer
        /// Throws this error.
        case fail(AppError)
        /// Waits until the calling task is cancelled, then throws `CancellationError`.
        case hang
    }

    private let behaviour: Behaviour
    private let calls: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    /// Creates a gate with one behaviour for every call.
    public init(_ behaviour: Behaviour = .answer) {
        self.behaviour = behaviour
        (calls, continuation) = AsyncStream.makeStream()
    }

    /// Called by the mock at the start of a call.
    public func pass() async throws {
        continuation.yield()
        switch behaviour {
        case .answer: return
        case .fail(let error): throw error
        case .hang:
            let (never, _) = AsyncStream<Void>.makeStream()
            for await _ in never {}
            throw CancellationError()
        }
    }

    /// Waits until the mock has been called once more.
    public func waitForCall() async {
        var iterator = calls.makeAsyncIterator()
        _ = await iterator.next()
    }
}
