import Kernel

/// What Files needs from outside: who is in a conversation (ConversationList), and which files
/// the messages they were uploaded for carry now (Chat). Connected by the composition root.
public protocol SharedMessages: Sendable {
    /// The members of `conversationID`, or `nil` when it does not exist.
    func members(of conversationID: ConversationID) async throws -> [UserID]?

    /// Those of `files` whose message is stored, not deleted, and carries them.
    func carried(_ files: [SharedFile]) async throws -> Set<FileID>
}
