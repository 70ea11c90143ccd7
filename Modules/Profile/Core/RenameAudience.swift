import Kernel

/// What Profile needs from outside: who sees a person's new display name (the person, and
/// everyone they share a conversation with but those they have blocked). Connected to
/// ConversationList by the composition root; asked once, when the name changes.
public protocol RenameAudience: Sendable {
    /// Who sees that `user` renamed themselves, `user` included.
    func audience(ofRenamed user: UserID) async throws -> [UserID]
}
