import Kernel

/// Who is typing where: notices that travel beside the store and are never stored (ADR 24).
/// Implementations: `InMemoryTypingService` (this process's `TypingHub`, on every local backend),
/// `RemoteTypingService`.
public protocol TypingService: Sendable {
    /// Tells the conversation's other members that the signed-in user is typing in it (or, with
    /// `typing` false, no longer is): never stored. A notice repeated within
    /// `ChatRules.typingGap` goes nowhere; one not refreshed lapses after `ChatRules.typingExpiry`.
    /// - Throws: `.notFound` for no such conversation; `.forbidden` for a non-member.
    func setTyping(_ typing: Bool, in conversationID: ConversationID) async throws

    /// Who starts and stops typing in the signed-in user's conversations from now on, beginning
    /// with who is typing already; never the user's own, nor those of anyone apart from them (`ChatRules.apart`).
    func typingNotices() async throws -> AsyncStream<TypingNotice>
}
