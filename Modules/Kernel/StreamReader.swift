/// The iterator of a stream that one reader at a time pulls from (an `AsyncStream`'s own rule),
/// for streams built with `AsyncStream(unfolding:)`.
final class StreamReader<Element: Sendable>: @unchecked Sendable {
    private var iterator: AsyncStream<Element>.Iterator

    init(_ stream: AsyncStream<Element>) { iterator = stream.makeAsyncIterator() }

    func next() async -> Element? { await iterator.next() }
}
