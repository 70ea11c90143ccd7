extension Caller {
    /// `stream`, ending as soon as a value arrives after the caller's session has ended, so that
    /// a revoked session receives nothing more. Other failures of the check (a busy store) let
    /// the value through: they say nothing about the session. Pulled, like `compactMapped`.
    public func guarding<Element: Sendable>(_ stream: AsyncStream<Element>) -> AsyncStream<Element> {
        let source = AsyncStream.Reader(stream)
        return AsyncStream {
            guard let element = await source.next() else { return nil }
            do {
                _ = try await principal()
            } catch let error as AppError where error.kind == .notSignedIn {
                return nil
            } catch {}
            return element
        }
    }
}
