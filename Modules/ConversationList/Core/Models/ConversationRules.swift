import Foundation
import Kernel

/// ConversationList's rules and errors, written once for every implementation.
public enum ConversationRules {
    /// Largest page of the list.
    public static let maxPage = 500
    /// A page's size when none is asked for.
    public static let defaultPage = 50
    /// Most invitations one person may have waiting. When they are all waiting, a new one takes
    /// the place of the oldest from a stranger (someone the person does not accept), so that no
    /// flood of invitations from throw-away accounts makes a person unreachable; only when every
    /// one waiting comes from people they accept is the new one not made, and its starter told.
    public static let maxPendingInvitations = 100
    /// People named in a new conversation per unit of the starter's conversation budget: writing a
    /// group costs in proportion to its size, so a group of 1,000 spends 20 units.
    public static let peoplePerConversationUnit = 50
    /// People of a new group written in one transaction: a group of 1,000 is written in ten,
    /// the first with the conversation, so that a send waits behind a tenth of it at most (a
    /// group whose writing stops half-way holds the people written so far).
    public static let peoplePerWrite = 100

    /// Writes a new group's `others` in parts of `peoplePerWrite` at most (one, empty, for a
    /// group of its creator alone), each by `write(part, first)`, one after the other, and
    /// returns who was not invited, gathered from every part.
    public static func writingInParts(_ others: [UserID], _ write: (_ part: [UserID], _ first: Bool) async throws -> [NotInvited]) async throws
        -> [NotInvited]
    {
        let starts = others.isEmpty ? [0] : Array(stride(from: 0, to: others.count, by: peoplePerWrite))
        var notInvited: [NotInvited] = []
        for start in starts {
            notInvited += try await write(Array(others[start..<min(start + peoplePerWrite, others.count)]), start == 0)
        }
        return notInvited
    }

    /// Who hears that a part of a new conversation added `members`: the members themselves in
    /// the first part (the starter among them), `everyone` a member by then in a later one.
    public static func addedAudience(first: Bool, members: [UserID], everyone: [UserID]) -> [UserID] {
        first ? members : everyone
    }

    /// What starting a conversation with `others` people besides its starter spends from the
    /// starter's conversation budget: one unit per `peoplePerConversationUnit` of them, at least one.
    public static func conversationCost(naming others: Int) -> Int {
        max(1, (others + peoplePerConversationUnit - 1) / peoplePerConversationUnit)
    }

    /// Whether a caller with `grant` sees conversation `id` in their list: a person all of theirs,
    /// a bot's token those it may read or send in.
    public static func listed(_ id: ConversationID, under grant: Grant) -> Bool {
        BotScope.Ability.allCases.contains { grant.allows($0, in: id) }
    }

    /// A listed row as a caller with `grant` sees it: whole where it may read, else without its
    /// messages (a token that only sends learns nothing of what is said).
    public static func row(_ row: ConversationSummary, under grant: Grant) -> ConversationSummary {
        grant.allows(.read, in: row.id) ? row : row.withoutMessages()
    }

    /// A bot is brought into groups; a one-to-one stays two people's.
    public static let botsJoinGroups = AppError(.invalidInput, "a bot joins groups only: make a group with it")

    /// How a person enters a conversation someone else starts.
    public enum Entry: Sendable, Equatable {
        /// A member at once.
        case member
        /// Invited: they see the invitation, and nothing of the conversation until they accept.
        /// `makingRoom`: their oldest invitation from a stranger expires to make room for it.
        case invited(makingRoom: Bool)
        /// Not invited, and the starter is told why.
        case notInvited(NotInvited.Reason)
        /// Not at all, and the starter is not told (the person blocked them: the starter cannot
        /// tell it from an invitation).
        case none
    }

    /// How a person enters a conversation its starter starts with them:
    /// - not at all (unbeknown to the starter) if they blocked the starter;
    /// - a member if they accept the starter (`acceptsStarter`: they once started a conversation
    ///   with the starter, or accepted an invitation of theirs) and every other person named in
    ///   it (`acceptsEveryoneNamed`): one acceptance is not consent to a group of strangers;
    /// - else invited, but not if an invitation of the starter's waits already (one is enough)
    ///   nor when `maxPendingInvitations` wait and none of them is from a stranger
    ///   (`strangerInvitationWaits`): the starter is told which.
    public static func entry(
        acceptsStarter: Bool, acceptsEveryoneNamed: Bool, blocked: Bool, invitedByStarter: Bool, pending: Int,
        strangerInvitationWaits: Bool
    ) -> Entry {
        if blocked { return .none }
        if acceptsStarter && acceptsEveryoneNamed { return .member }
        if invitedByStarter { return .notInvited(.alreadyInvited) }
        if pending < maxPendingInvitations { return .invited(makingRoom: false) }
        return strangerInvitationWaits ? .invited(makingRoom: true) : .notInvited(.full)
    }

    /// The key of the one-to-one of `one` and `other`, whichever starts it: their ids in order,
    /// joined by `|` (no id holds one), unique in a store, so a pair has one one-to-one.
    public static func directKey(_ one: UserID, _ other: UserID) -> String {
        [one.rawValue, other.rawValue].sorted().joined(separator: "|")
    }

    /// Where a person stands in a conversation, as a store holds it; `nil` where they are not in it.
    public enum Place: String, Sendable {
        case member, invited
    }

    /// What starting an existing one-to-one does for its person.
    public enum Entering: Sendable, Equatable {
        /// Nothing: a member already.
        case stays
        /// Accepts the invitation waiting for them.
        case accepts
        /// Joins it again, having left it.
        case joins
    }

    /// What starting an existing one-to-one does for a person in `place` there.
    public static func entering(_ place: Place?) -> Entering {
        switch place {
        case .member: .stays
        case .invited: .accepts
        case nil: .joins
        }
    }

    /// Whether accepting an invitation to `id` does anything for a person in `place` there: not
    /// for a member (accepting twice answers as once).
    /// - Throws: `noInvitation` for someone not invited.
    public static func accepting(_ place: Place?, in id: ConversationID) throws -> Bool {
        switch place {
        case .member: false
        case .invited: true
        case nil: throw noInvitation(id)
        }
    }

    /// Whether declining `id` drops the invitation of a person in `place` there: nothing for
    /// someone not in it, which is no error where the conversation `exists`.
    /// - Throws: `alreadyMember` for a member; `.notFound` where there is no conversation `id`.
    public static func declining(_ place: Place?, in id: ConversationID, exists: Bool) throws -> Bool {
        switch place {
        case .member: throw alreadyMember(id)
        case .invited: return true
        case nil:
            guard exists else { throw AppError.noConversation(id) }
            return false
        }
    }

    /// Whether leaving `id` is told (to `leftAudience`): when the person `wasMember`; leaving
    /// a conversation one is not a member of does nothing, which is no error where it `exists`.
    /// - Throws: `.notFound` where there is no conversation `id`.
    public static func leaving(wasMember: Bool, in id: ConversationID, exists: Bool) throws -> Bool {
        guard wasMember || exists else { throw AppError.noConversation(id) }
        return wasMember
    }

    /// Who hears that `person` left or declined: they, and the `members` left.
    public static func leftAudience(_ person: UserID, members: [UserID]) -> [UserID] {
        [person] + members
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

/// What the list lets a member choose to be told of: the list keeps the choice, so it decides
/// which ends it takes.
extension NotificationChoice {
    /// Most one can mute for: a year.
    public static let longest: TimeInterval = 366 * 24 * 3_600

    /// Checks a choice made at `now`: an end in the future, at most `longest` away.
    /// - Throws: `.invalidInput` for an end that is past, or too far.
    public static func check(until: Date?, at now: Date) throws {
        guard let until else { return }
        guard until > now else { throw AppError(.invalidInput, "the end of a mute must be in the future") }
        guard until.timeIntervalSince(now) <= longest else { throw AppError(.invalidInput, "a mute ends within a year, or is for good") }
    }
}
