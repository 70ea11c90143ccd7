import Kernel

/// ConversationList's rules and errors, written once for every implementation.
public enum ConversationRules {
    /// Largest page of the list.
    public static let maxPage = 500
    /// A page's size when none is asked for.
    public static let defaultPage = 50
    /// Most invitations one person may have waiting: past it nobody new can invite them until
    /// they answer some, so that no flood of invitations can bury the rest.
    public static let maxPendingInvitations = 100

    /// How a person enters a conversation someone else starts.
    public enum Entry: Sendable, Equatable {
        /// A member at once.
        case member
        /// Invited: they see the invitation, and nothing of the conversation until they accept.
        case invited
        /// Not at all.
        case none
    }

    /// How a person enters a conversation its starter starts with them: as a member if they
    /// accept the starter (`trusts`: they once started a conversation with the starter, or
    /// accepted an invitation of theirs); not at all if they blocked the starter, already have an
    /// invitation of the starter's waiting (one is enough), or have `maxPendingInvitations`
    /// waiting; else invited.
    public static func entry(trusts: Bool, blocked: Bool, invitedByStarter: Bool, pending: Int) -> Entry {
        if blocked { return .none }
        if trusts { return .member }
        if invitedByStarter || pending >= maxPendingInvitations { return .none }
        return .invited
    }

    /// Checks a page size.
    /// - Throws: `.invalidInput` outside 1–500.
    public static func checkPageLimit(_ limit: Int) throws {
        guard (1...maxPage).contains(limit) else { throw AppError(.invalidInput, "a page of conversations has 1 to \(maxPage) rows, not \(limit)") }
    }

    /// The page of `rows` (the whole list, in its order) that follows `after`.
    /// - Throws: `.invalidInput` for a bad `limit`; `.notFound` when `after` is not in `rows`.
    public static func page(of rows: [ConversationSummary], limit: Int, after: ConversationID?) throws -> ConversationPage {
        try checkPageLimit(limit)
        var start = rows.startIndex
        if let after {
            guard let index = rows.firstIndex(where: { $0.id == after }) else { throw AppError.noConversation(after) }
            start = index + 1
        }
        let end = min(rows.endIndex, start + limit)
        return ConversationPage(conversations: Array(rows[start..<end]), hasMore: end < rows.endIndex)
    }

    /// There is no invitation to `conversationID` for the caller.
    public static func noInvitation(_ conversationID: ConversationID) -> AppError {
        AppError(.notFound, "no invitation to conversation \(AppError.quoting(conversationID.rawValue))")
    }

    /// The caller is a member of `conversationID`: there is nothing to decline.
    public static func alreadyMember(_ conversationID: ConversationID) -> AppError {
        AppError(.conflict, "you are a member of conversation \(conversationID); leave it instead")
    }

    /// One cannot block oneself.
    public static let selfBlock = AppError(.invalidInput, "you cannot block yourself")
}
