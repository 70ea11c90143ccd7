import Kernel

/// What the list needs from outside about people: their display names. Connected to Profile by
/// the composition root.
public protocol UserDirectory: Sendable {
    /// Display names of the given users; unknown ids are left out.
    func displayNames(of ids: [UserID]) async throws -> [UserID: String]
}
