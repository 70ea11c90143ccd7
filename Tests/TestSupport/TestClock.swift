import Foundation
import Kernel
import Synchronization

/// A wall clock a test moves by hand (session expiry, timestamps).
public final class TestClock: WallClock {
    private let current: Mutex<Date>

    /// Starts at `start`.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex(start) }

    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}
