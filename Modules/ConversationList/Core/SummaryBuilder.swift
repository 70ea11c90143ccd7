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
        let otherIDs = Set(conversations.filter { !$0.isGroup }.flatMap(\.memberIDs)).subtracting([reader])
        let names = try await users.displayNames(of: Array(otherIDs))
        let activities = try await activity.activity(of: conversations.map(\.id), for: reader)
        return ConversationSummary.byRecentActivity(conversations.map { conversation in
            ConversationSummary(
                conversation: conversation,
                title: conversation.title ?? directTitle(conversation, reader: reader, names: names),
                activity: activities[conversation.id] ?? .none
            )
        })
    }

    /// Checks that every id is a known user and returns the names found.
    public func requireUsers(_ ids: [UserID]) async throws -> [UserID: String] {
        let names = try await users.displayNames(of: ids)
        if let missing = ids.first(where: { names[$0] == nil }) { throw AppError(.notFound, "no user '\(missing)'") }
        return names
    }

    private func directTitle(_ conversation: Conversation, reader: UserID, names: [UserID: String]) -> String {
        let other = conversation.memberIDs.first { $0 != reader } ?? reader
        return names[other] ?? "unknown user"
    }
}
