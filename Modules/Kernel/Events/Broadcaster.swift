import Synchronization

/// Fans values out to any number of `AsyncStream` subscribers.
///
/// Live updates of every in-memory service go through one of these. A subscriber that stops
/// iterating is removed; a slow one keeps the newest `bufferSize` values.
public final class Broadcaster<Element: Sendable>: Sendable {
    private struct State {
        var nextID = 0
        var continuations: [Int: AsyncStream<Element>.Continuation] = [:]
    }

    private let state = Mutex(State())
    private let bufferSize: Int

    /// Creates a broadcaster whose subscribers buffer at most `bufferSize` undelivered values.
    public init(bufferSize: Int = 1_024) { self.bufferSize = bufferSize }

    /// A new subscription that receives every value sent from now on.
    public func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(bufferSize))
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.continuations[state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Delivers `element` to every current subscriber.
    public func send(_ element: Element) {
        for continuation in state.withLock({ Array($0.continuations.values) }) {
            continuation.yield(element)
        }
    }

    /// Ends every current subscription (their streams finish).
    public func finish() {
        for continuation in state.withLock({ state in
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }) {
            continuation.finish()
        }
    }

    /// The number of live subscriptions.
    public var subscriberCount: Int { state.withLock { $0.continuations.count } }
}
