extension AsyncStream where Element: Sendable {
    /// A stream of `transform` applied to each element, ending when this one ends and ending this
    /// one when the reader stops.
    public func mapped<Mapped: Sendable>(_ transform: @escaping @Sendable (Element) -> Mapped) -> AsyncStream<Mapped> {
        compactMapped(transform)
    }

    /// A stream of the non-`nil` results of `transform`, ending when this one ends and ending
    /// this one when the reader stops. Pulled, not forwarded: each element is read from this
    /// stream when the reader asks for the next one, so this stream's buffer stays the only one
    /// (its limit holds) and no task is spent on it.
    public func compactMapped<Mapped: Sendable>(_ transform: @escaping @Sendable (Element) -> Mapped?) -> AsyncStream<Mapped> {
        let source = Reader(self)
        return AsyncStream<Mapped> {
            while let element = await source.next() {
                if let mapped = transform(element) { return mapped }
            }
            return nil
        }
    }

    /// A stream of `transform` applied to each element, which may wait (a look-up), pulled as
    /// `compactMapped` is.
    public func transformed<Mapped: Sendable>(by transform: @escaping @Sendable (Element) async -> Mapped) -> AsyncStream<Mapped> {
        let source = Reader(self)
        return AsyncStream<Mapped> {
            guard let element = await source.next() else { return nil }
            return await transform(element)
        }
    }

    /// The iterator of a stream that one reader at a time pulls from (an `AsyncStream`'s own
    /// rule), for streams built with `AsyncStream(unfolding:)`.
    final class Reader: @unchecked Sendable {
        private var iterator: AsyncStream<Element>.Iterator

        init(_ stream: AsyncStream<Element>) { iterator = stream.makeAsyncIterator() }

        func next() async -> Element? { await iterator.next() }
    }
}
