import Kernel
import Synchronization

/// A session store that lives as long as the process.
public final class InMemorySessionStore: SessionStore {
    private let session: Mutex<Session?>

    /// Creates a store, optionally already signed in.
    public init(_ session: Session? = nil) { self.session = Mutex(session) }

    public func load() -> Session? { session.withLock { $0 } }
    public func save(_ session: Session?) { self.session.withLock { $0 = session } }
}
