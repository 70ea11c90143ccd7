import Foundation

/// Tells the time of day; injected so tests control timestamps.
public protocol WallClock: Sendable {
    /// The current time.
    func now() -> Date
}
