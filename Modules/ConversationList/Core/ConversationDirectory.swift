import Kernel

/// Membership look-ups, for other features (through the composition root).
public protocol ConversationDirectory: Sendable {
    /// Members of a conversation, or `nil` if it does not exist.
    func members(of conversationID: ConversationID) async throws -> [UserID]?
    /// Everyone who shares at least one conversation with `user` (without `user`).
    func contacts(of user: UserID) async throws -> [UserID]
}
