extension AsyncStream where Element: Sendable {
    /// A stream of `transform` applied to each element, ending when this one ends and ending this
    /// one when the reader stops; `bufferingPolicy` is the new stream's buffer's.
    public func mapped<Mapped: Sendable>(bufferingPolicy: AsyncStream<Mapped>.Continuation.BufferingPolicy = .unbounded,
                                         _ transform: @escaping @Sendable (Element) -> Mapped) -> AsyncStream<Mapped> {
        compactMapped(bufferingPolicy: bufferingPolicy, transform)
    }

    /// A stream of the non-`nil` results of `transform`, ending when this one ends and ending
    /// this one when the reader stops; `bufferingPolicy` is the new stream's buffer's.
    public func compactMapped<Mapped: Sendable>(bufferingPolicy: AsyncStream<Mapped>.Continuation.BufferingPolicy = .unbounded,
                                                _ transform: @escaping @Sendable (Element) -> Mapped?) -> AsyncStream<Mapped> {
        AsyncStream<Mapped>(bufferingPolicy: bufferingPolicy) { continuation in
            let forwarder = Task {
                for await element in self {
                    if let mapped = transform(element) { continuation.yield(mapped) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in forwarder.cancel() }
        }
    }
}
