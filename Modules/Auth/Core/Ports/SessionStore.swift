import Kernel
import Synchronization

/// Keeps this device's session of one profile: the client side of Auth writes it, and the
/// composition root reads its token to build services for that caller. Implementations: in
/// memory (tests, memory backend) and a per-profile file.
public protocol SessionStore: Sendable {
    /// The current session, if someone is signed in.
    func load() throws -> Session?
    /// Replaces the current session; `nil` signs out.
    func save(_ session: Session?) throws
}

extension SessionStore {
    /// The current session, or `AppError.notSignedIn`.
    public func requireSession() throws -> Session {
        guard let session = try load() else { throw AppError.notSignedIn }
        return session
    }
}

/// A session store that lives as long as the process.
public final class InMemorySessionStore: SessionStore {
    private let session: Mutex<Session?>

    /// Creates a store, optionally already signed in.
    public init(_ session: Session? = nil) { self.session = Mutex(session) }

    public func load() -> Session? { session.withLock { $0 } }
    public func save(_ session: Session?) { self.session.withLock { $0 = session } }
}
