import Kernel

/// What bots need of ConversationList, through the composition root: a person bringing their
/// bot into a conversation they are in. Auth does not import ConversationList.
public protocol BotMembership: Sendable {
    /// Makes `bot` a member of `conversationID` on the word of `owner`, who must be a member.
    /// - Throws: `.notFound` when `owner` is not a member there (as for any conversation not theirs).
    func admit(_ bot: UserID, to conversationID: ConversationID, by owner: UserID) async throws

    /// Takes `bot` out of every conversation it is in (it is being deleted).
    func dismiss(_ bot: UserID) async throws
}
