extension Caller {
    /// `stream`, ending as soon as a value arrives after the caller's session has ended, so that
    /// a revoked session receives nothing more. Other failures of the check (a busy store) let
    /// the value through: they say nothing about the session.
    public func guarding<Element: Sendable>(_ stream: AsyncStream<Element>) -> AsyncStream<Element> {
        AsyncStream { continuation in
            let forwarder = Task {
                for await element in stream {
                    do {
                        _ = try await id()
                    } catch let error as AppError where error.kind == .notSignedIn {
                        break
                    } catch {}
                    continuation.yield(element)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in forwarder.cancel() }
        }
    }
}
