import Kernel

/// Membership look-ups, for other features (through the composition root).
public protocol ConversationDirectory: Sendable {
    /// Members of a conversation now (not its invitees), or `nil` if it does not exist.
    func members(of conversationID: ConversationID) async throws -> [UserID]?
    /// Everyone who is a member of at least one conversation with `user` now (without `user`),
    /// but those `user` has blocked: who sees `user`'s new name.
    func contacts(of user: UserID) async throws -> [UserID]
    /// Who `user` has blocked, and who has blocked `user`: people whose changes (read receipts
    /// among them) do not reach each other.
    func blocks(involving user: UserID) async throws -> (blocked: Set<UserID>, blockers: Set<UserID>)
}
