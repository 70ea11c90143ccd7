extension AsyncStream where Element: Sendable {
    /// A stream of `transform` applied to each element, ending when this one ends and ending this
    /// one when the reader stops.
    public func mapped<Mapped: Sendable>(_ transform: @escaping @Sendable (Element) -> Mapped) -> AsyncStream<Mapped> {
        compactMapped(transform)
    }

    /// A stream of the non-`nil` results of `transform`, ending when this one ends and ending
    /// this one when the reader stops.
    public func compactMapped<Mapped: Sendable>(_ transform: @escaping @Sendable (Element) -> Mapped?) -> AsyncStream<Mapped> {
        AsyncStream<Mapped> { continuation in
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
