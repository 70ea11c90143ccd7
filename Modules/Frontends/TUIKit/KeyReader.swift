import REPLKit

/// Decodes the terminal's bytes into keys, handing on an Esc that stays alone for
/// `FullScreenUI.escapeWait` as the key itself.
@MainActor
final class KeyReader {
    private var decoder = KeyDecoder()
    private var received = 0
    private let keys: AsyncStream<Key>.Continuation

    init(_ keys: AsyncStream<Key>.Continuation) { self.keys = keys }

    func feed(_ byte: UInt8) {
        received += 1
        if let key = decoder.feed(byte) {
            keys.yield(key)
            return
        }
        guard byte == 0x1B else { return }
        let waited = received
        Task { @MainActor [weak self] in
            try? await Task.sleep(for: FullScreenUI.escapeWait)
            guard let self, received == waited, let escape = decoder.flushEscape() else { return }
            keys.yield(escape)
        }
    }

    /// The keys of `bytes`, an Esc alone after `FullScreenUI.escapeWait` as `.escape`.
    static func keys(of bytes: AsyncStream<UInt8>) -> AsyncStream<Key> {
        let (keys, continuation) = AsyncStream<Key>.makeStream()
        let reader = KeyReader(continuation)
        let pump = Task { @MainActor in
            for await byte in bytes { reader.feed(byte) }
            continuation.finish()
        }
        continuation.onTermination = { _ in pump.cancel() }
        return keys
    }
}
