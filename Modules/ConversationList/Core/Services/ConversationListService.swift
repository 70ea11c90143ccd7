import Foundation
import Kernel

/// The signed-in user's conversations, and who may put them in one. Implementations:
/// `StoredConversationListService` (over the memory backend's, SQLite's or PostgreSQL's
/// `ConversationListStore`), `RemoteConversationListService`.
///
/// Nobody is put in a conversation against their will: someone who starts one with you (a
/// one-to-one or a group) makes you a member only if you have shown you accept them (you started
/// a conversation with them, or accepted an invitation of theirs); otherwise you are invited, and
/// until you accept you see only the invitation. You may leave any conversation, and block
/// anyone (`ConversationRules` says what that does).
public protocol ConversationListService: Sendable {
    /// A page of the signed-in user's conversations, most recent activity first: the first
    /// `limit` (1–500) after the conversation `after`, or from the start.
    /// - Throws: `.invalidInput` for a `limit` out of range; `.notFound` when `after` is not in the list.
    func conversations(limit: Int, after: ConversationID?) async throws -> ConversationPage

    /// Every conversation of the signed-in user, most recent activity first. A service that
    /// builds its whole list for each page answers it at once; the default reads page by page.
    func conversations() async throws -> [ConversationSummary]

    /// The one-to-one conversation with `userID`, created if there is none yet; starting one you
    /// were invited to accepts it, starting one you left joins it again.
    /// - Throws: `.notFound` for an unknown user; `.invalidInput` for oneself.
    func startDirect(with userID: UserID) async throws -> ConversationSummary

    /// Creates a group with a title; the signed-in user is always a member, the others members
    /// or invitees (`ConversationRules.entry`).
    func createGroup(title: String, memberIDs: [UserID]) async throws -> ConversationSummary

    /// The signed-in user's pending invitations, newest first (at most `ConversationRules.maxPendingInvitations`).
    func invitations() async throws -> [Invitation]

    /// Accepts an invitation: the user becomes a member, and accepts its inviter from now on.
    /// Accepting again (a retry) answers the conversation as it is.
    /// - Throws: `.notFound` when there is no such invitation and the user is not a member.
    func accept(_ conversationID: ConversationID) async throws -> ConversationSummary

    /// Declines an invitation; declining again (a retry) does nothing.
    /// - Throws: `.notFound` for an unknown conversation; `.conflict` when the user is a member
    ///   (they leave it instead).
    func decline(_ conversationID: ConversationID) async throws

    /// Leaves a conversation: its messages and events no longer reach the user, who may come
    /// back to a one-to-one by starting it again. Leaving one the user is not in (a retry) does
    /// nothing.
    /// - Throws: `.notFound` for an unknown conversation.
    func leave(_ conversationID: ConversationID) async throws

    /// Blocks `userID`: their invitations are declined and they cannot invite or add the user,
    /// the user leaves their one-to-one, and they no longer see the user's new names.
    /// - Throws: `.notFound` for an unknown user; `.invalidInput` for oneself.
    func block(_ userID: UserID) async throws

    /// Unblocks `userID` (the one-to-one is not joined again: start it to).
    func unblock(_ userID: UserID) async throws

    /// The people the signed-in user has blocked.
    func blockedUsers() async throws -> [UserID]
    /// Chooses what in a conversation tells the caller (`nil`: its standard level again), until
    /// `until` or for good; every device of theirs follows.
    /// - Throws: `.notFound` for a conversation that is not the caller's; `.invalidInput` for an end
    ///   that is past or more than a year away.
    func chooseNotifications(_ level: NotificationLevel?, until: Date?, in conversationID: ConversationID) async throws

    /// Ticks whenever anything in the signed-in user's list may have changed (new conversation,
    /// new message, read marker moved, an invitation, someone joined or left). Readers fetch again.
    func changes() async throws -> AsyncStream<Void>
}

extension ConversationListService {
    /// Every conversation of the signed-in user, most recent activity first, read page by page
    /// (the remote service's way: a page is what the server answers).
    public func conversations() async throws -> [ConversationSummary] {
        var rows: [ConversationSummary] = []
        while true {
            let page = try await conversations(limit: ConversationRules.maxPage, after: rows.last?.id)
            rows += page.conversations
            guard page.hasMore, !page.conversations.isEmpty else { return rows }
        }
    }
}
