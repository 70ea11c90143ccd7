import Kernel

/// A person bringing their bot into a group they are in, the same on every store: the bot enters
/// on its owner's word (it accepts them, as a person who starts a conversation does), where
/// starting one with strangers is no bot's to do. Auth's bots reach it through the composition root.
public struct BotAdmission: Sendable {
    private let store: any ConversationListStore
    private let membersChanged: @Sendable (ConversationID) -> Void

    /// Admits over `store`; `membersChanged` hears of each conversation the bot entered.
    public init(store: any ConversationListStore, membersChanged: @escaping @Sendable (ConversationID) -> Void = { _ in }) {
        self.store = store
        self.membersChanged = membersChanged
    }

    /// Makes `bot` a member of group `id`, where `owner` is a member.
    /// - Throws: `.notFound` where `owner` is not a member (as for any conversation not theirs);
    ///   `.invalidInput` for a one-to-one.
    public func admit(_ bot: UserID, to id: ConversationID, by owner: UserID) async throws {
        guard let conversation = try await store.conversation(id), conversation.memberIDs.contains(owner) else { throw AppError.noConversation(id) }
        guard conversation.isGroup else { throw ConversationRules.botsJoinGroups }
        if try await store.enter(id, by: bot, accepting: owner) { membersChanged(id) }
    }

    /// Takes `bot` out of every conversation it is in: it is deleted, and nobody else could.
    public func dismiss(_ bot: UserID) async throws {
        for conversation in try await store.conversations(of: bot) {
            try await store.leave(conversation.id, by: bot)
            membersChanged(conversation.id)
        }
    }
}
