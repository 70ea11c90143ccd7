import Kernel

/// What Chat needs from outside to find whom a message mentions: people's display names.
/// Connected to Profile by the composition root.
public protocol MemberNames: Sendable {
    /// The display names of `ids`; unknown ids are left out. On the caller's executor: a send
    /// that mentions someone asks it, and a cached answer should cost no hop.
    nonisolated(nonsending) func displayNames(of ids: [UserID]) async throws -> [UserID: String]
}
