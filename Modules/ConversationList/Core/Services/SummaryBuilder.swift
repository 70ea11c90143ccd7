import Foundation
import Kernel

/// Turns stored conversations into list rows: titles from the user directory, last message and
/// unread count from the activity source, sorted by recent activity. Shared by every
/// implementation that stores conversations itself.
public struct SummaryBuilder: Sendable {
    private let users: any UserDirectory
    private let activity: any ActivitySource

    /// Creates a builder over the two ports.
    public init(users: any UserDirectory, activity: any ActivitySource) {
        self.users = users
        self.activity = activity
    }

    /// Rows for `conversations` as `reader` sees them, most recent first.
    public func summaries(of conversations: [Conversation], for reader: UserID) async throws -> [ConversationSummary] {
        let otherIDs = Set(conversations.compactMap { $0.counterpart(of: reader) })
        // Two independent reads: run them side by side.
        async let namesRead = users.displayNames(of: Array(otherIDs))
        async let activitiesRead = activity.activity(of: conversations.map(\.id), for: reader)
        let (names, activities) = try await (namesRead, activitiesRead)
        return ConversationSummary.byRecentActivity(
            conversations.map { conversation in
                ConversationSummary(
                    conversation: conversation,
                    title: conversation.title ?? directTitle(conversation, reader: reader, names: names),
                    activity: activities[conversation.id] ?? .none
                )
            })
    }

    /// The invitations of `invitee` to `conversations` (with who invited, and when), newest first.
    public func invitations(to conversations: [(conversation: Conversation, inviter: UserID, at: Date)], for invitee: UserID) async throws
        -> [Invitation]
    {
        let names = try await users.displayNames(of: Array(Set(conversations.map(\.inviter))))
        return conversations.map { entry in
            let inviterName = names[entry.inviter] ?? "unknown user"
            return Invitation(
                id: entry.conversation.id, title: entry.conversation.title ?? inviterName, isGroup: entry.conversation.isGroup,
                inviterID: entry.inviter, inviterName: inviterName, memberCount: entry.conversation.memberIDs.count,
                invitedAt: entry.at)
        }.sorted { $0.invitedAt != $1.invitedAt ? $0.invitedAt > $1.invitedAt : $0.id < $1.id }
    }

    /// Checks that `user` may be blocked by `me`.
    /// - Throws: `.invalidInput` for oneself, `.notFound` for an unknown user.
    public func checkBlock(by me: UserID, of user: UserID) async throws {
        guard user != me else { throw ConversationRules.selfBlock }
        try await requireUsers([user])
    }

    /// The row of one conversation as `reader` sees it.
    public func summary(of conversation: Conversation, for reader: UserID) async throws -> ConversationSummary {
        guard let row = try await summaries(of: [conversation], for: reader).first else { throw AppError.noConversation(conversation.id) }
        return row
    }

    /// Checks that `me` may start a one-to-one conversation with `other`.
    /// - Throws: `.invalidInput` for oneself, `.notFound` for an unknown user.
    public func checkDirect(from me: UserID, with other: UserID) async throws {
        guard other != me else { throw AppError(.invalidInput, "you cannot start a conversation with yourself") }
        try await requireUsers([other])
    }

    /// Checks a new group: its title, and its members (the creator first, each once) as known
    /// users. `pay` is told how many others it names once the checks that cost nothing pass and
    /// before they are looked up, so that a request the budget refuses looks up no one.
    /// - Returns: the trimmed title and the member list to store.
    public func checkGroup(title: String, creator: UserID, adding others: [UserID], paying pay: (_ others: Int) throws -> Void = { _ in })
        async throws -> (title: String, members: [UserID])
    {
        let title = try Validation.title(title)
        let members = Conversation.members(creator: creator, adding: others)
        try pay(members.count - 1)
        try await requireUsers(members)
        return (title, members)
    }

    private func requireUsers(_ ids: [UserID]) async throws {
        let names = try await users.displayNames(of: ids)
        if let missing = ids.first(where: { names[$0] == nil }) { throw AppError(.notFound, "no user \(AppError.quoting(missing.rawValue))") }
    }

    private func directTitle(_ conversation: Conversation, reader: UserID, names: [UserID: String]) -> String {
        conversation.counterpart(of: reader).flatMap { names[$0] } ?? "unknown user"
    }
}
