import Kernel

/// What a reader resuming after a cursor gets, pulled one element at a time: the stored elements
/// after the cursor, read a page at a time only when the reader has taken the previous page,
/// then the live elements that follow the last one given. None is missed (the live subscription
/// is taken before the first page is read) and none comes twice. Ends when a page cannot be
/// read (rather than skip it) and when a live element is of another epoch (the store was replaced).
final class ResumedEvents<Element: Sendable & WireWeighed>: @unchecked Sendable {
    // Unchecked: an `AsyncStream` has one reader at a time, which is the only caller of `next`.
    private var page: [Element]
    private var index = 0
    private var gate: CursorGate
    private var catchingUp = true
    private var liveReader: AsyncStream<Element>.Iterator
    private let cursorOf: @Sendable (Element) -> EventCursor?
    private let read: @Sendable (EventCursor) async throws -> [Element]

    /// The stream: `first` (read after subscribing to `live`), then pages `read` gives after the
    /// last cursor while pages come full (`ChatRules.isFull`), then `live`.
    static func stream(
        live: AsyncStream<Element>, after cursor: EventCursor, first: [Element],
        cursor cursorOf: @escaping @Sendable (Element) -> EventCursor?,
        read: @escaping @Sendable (EventCursor) async throws -> [Element]
    ) -> AsyncStream<Element> {
        let resumed = ResumedEvents(live: live, after: cursor, first: first, cursor: cursorOf, read: read)
        return AsyncStream { await resumed.next() }
    }

    private init(
        live: AsyncStream<Element>, after cursor: EventCursor, first: [Element],
        cursor cursorOf: @escaping @Sendable (Element) -> EventCursor?, read: @escaping @Sendable (EventCursor) async throws -> [Element]
    ) {
        page = first
        gate = CursorGate(after: cursor)
        liveReader = live.makeAsyncIterator()
        self.cursorOf = cursorOf
        self.read = read
    }

    private func next() async -> Element? {
        while catchingUp {
            if index < page.count {
                let element = page[index]
                index += 1
                _ = gate.admit(cursorOf(element))
                return element
            }
            guard ChatRules.isFull(page) else {
                catchingUp = false
                break
            }
            guard let last = gate.last, let more = try? await read(last) else { return nil }
            (page, index) = (more, 0)
        }
        while let element = await liveReader.next() {
            switch gate.admit(cursorOf(element)) {
            case .pass: return element
            case .repeated: continue
            case .otherEpoch: return nil
            }
        }
        return nil
    }
}
