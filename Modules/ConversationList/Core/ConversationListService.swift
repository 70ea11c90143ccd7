import Kernel

/// The signed-in user's conversations. Implementations: `InMemoryConversationListService`,
/// `SQLConversationListService`, `RemoteConversationListService`.
public protocol ConversationListService: Sendable {
    /// All of the signed-in user's conversations, most recent activity first.
    func conversations() async throws -> [ConversationSummary]

    /// The one-to-one conversation with `userID`, created if there is none yet.
    /// - Throws: `.notFound` for an unknown user; `.invalidInput` for oneself.
    func startDirect(with userID: UserID) async throws -> ConversationSummary

    /// Creates a group with a title; the signed-in user is always a member.
    func createGroup(title: String, memberIDs: [UserID]) async throws -> ConversationSummary

    /// Ticks whenever anything in the signed-in user's list may have changed (new conversation,
    /// new message, read marker moved). Readers fetch `conversations()` again.
    func changes() async throws -> AsyncStream<Void>
}
