extension AsyncStream {
    /// A stream of `transform` applied to each element, ending when this one ends and ending this
    /// one when the reader stops.
    public func mapped<Mapped: Sendable>(_ transform: @escaping @Sendable (Element) -> Mapped) -> AsyncStream<Mapped> where Element: Sendable {
        AsyncStream<Mapped> { continuation in
            let forwarder = Task {
                for await element in self { continuation.yield(transform(element)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in forwarder.cancel() }
        }
    }
}
