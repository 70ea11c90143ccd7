extension Caller {
    /// `stream`, ending as soon as a value arrives after the caller's session has ended, so that
    /// a revoked session receives nothing more.
    public func guarding<Element: Sendable>(_ stream: AsyncStream<Element>) -> AsyncStream<Element> {
        AsyncStream { continuation in
            let forwarder = Task {
                for await element in stream {
                    guard (try? await id()) != nil else { break }
                    continuation.yield(element)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in forwarder.cancel() }
        }
    }
}
