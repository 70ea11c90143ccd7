import Foundation
import Kernel
import Synchronization

/// The system's clock, which a test can move forward by hand (session expiry) while time still
/// passes as usual between steps (ordering by time keeps working).
public final class TestClock: WallClock {
    private let offset = Mutex<TimeInterval>(0)

    /// Starts at the system's time.
    public init() {}

    public func now() -> Date { Date() + offset.withLock { $0 } }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}
