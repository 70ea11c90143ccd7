import Kernel

/// What Chat needs from outside to find whom a message mentions: people's display names.
/// Connected to Profile by the composition root.
public protocol MemberNames: Sendable {
    /// The display names of `ids`; unknown ids are left out.
    func displayNames(of ids: [UserID]) async throws -> [UserID: String]
}
