import Foundation

/// The system's clock.
public struct SystemWallClock: WallClock {
    /// Creates the system clock.
    public init() {}
    public func now() -> Date { Date() }
}
