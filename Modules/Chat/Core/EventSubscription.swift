import Synchronization

/// A live reader's registration with an `EventFanOut`: cancelling it stops the deliveries.
public final class EventSubscription: Sendable {
    private let cancellation: Mutex<(@Sendable () -> Void)?>

    init(cancel: @escaping @Sendable () -> Void) { cancellation = Mutex(cancel) }

    /// Stops delivering to the reader; later calls do nothing.
    public func cancel() {
        cancellation.withLock { cancel in
            defer { cancel = nil }
            return cancel
        }?()
    }
}
