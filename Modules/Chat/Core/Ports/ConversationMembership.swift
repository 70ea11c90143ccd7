import Kernel

/// What Chat needs from outside: who is in a conversation. Connected to ConversationList by the
/// composition root.
public protocol ConversationMembership: Sendable {
    /// Members of a conversation, or `nil` if it does not exist. On the caller's executor: a
    /// send asks it every time, and a cached answer should cost no hop between threads.
    nonisolated(nonsending) func members(of conversationID: ConversationID) async throws -> [UserID]?
    /// Who `user` has blocked, and who has blocked `user`: people whose changes (read receipts
    /// among them) do not reach each other. On the caller's executor, as `members(of:)`: a send
    /// that mentions someone asks it, and a cached answer should cost no hop.
    nonisolated(nonsending) func blocks(involving user: UserID) async throws -> (blocked: Set<UserID>, blockers: Set<UserID>)
}

extension ConversationMembership {
    /// Checks that `user` may read and post in the conversation, and returns its members.
    /// - Throws: `.notFound` for an unknown conversation, `.forbidden` for a non-member.
    @discardableResult
    public nonisolated(nonsending) func requireMember(_ user: UserID, of conversationID: ConversationID) async throws -> [UserID] {
        let (members, isMember) = try await membership(of: user, in: conversationID)
        guard isMember else { throw ChatRules.notMember(conversationID) }
        return members
    }

    /// `caller`, once allowed `ability` in the conversation: a member, whose token (a bot's) allows
    /// it there, and whose owner (a bot's) is a member too: a bot acts only where the person who
    /// keeps it is. Its members too. A reaction or a reply shows what it answers (`alsoReading`):
    /// a token that only sends may not.
    /// - Throws: as `requireMember` does; `.forbidden` beyond a bot token's scope.
    public nonisolated(nonsending) func require(
        _ caller: Caller, to ability: BotScope.Ability, in conversationID: ConversationID, alsoReading: Bool = false
    ) async throws -> (me: UserID, members: [UserID]) {
        if alsoReading { _ = try await caller.id(to: .read, in: conversationID) }
        let (me, owner) = try await caller.id(to: ability, in: conversationID)
        let members = try await requireMember(me, of: conversationID)
        if let owner, !members.contains(owner) { throw ChatRules.ownerAway(conversationID) }
        return (me, members)
    }

    /// The members of the conversation, and whether `user` is one of them: for what its author
    /// may do to her message after leaving (`ChatRules.delete`).
    /// - Throws: `.notFound` for an unknown conversation.
    public nonisolated(nonsending) func membership(of user: UserID, in conversationID: ConversationID) async throws -> (
        members: [UserID], isMember: Bool
    ) {
        guard let members = try await members(of: conversationID) else { throw AppError.noConversation(conversationID) }
        return (members, members.contains(user))
    }

    /// The people `user` is apart from (`ChatRules.apart`): no read receipt, reaction or typing
    /// passes between them.
    public nonisolated(nonsending) func people(apartFrom user: UserID) async throws -> Set<UserID> {
        ChatRules.apart(try await blocks(involving: user))
    }

    /// The people `user` is apart from, and for a bot (`grant`) those its owner is apart from too:
    /// a bot keeps its owner's blocks, so that nobody reaches a person through their bot.
    public nonisolated(nonsending) func people(apartFrom user: UserID, under grant: Grant) async throws -> Set<UserID> {
        let own = try await people(apartFrom: user)
        guard let owner = grant.owner else { return own }
        return own.union(try await people(apartFrom: owner))
    }
}
