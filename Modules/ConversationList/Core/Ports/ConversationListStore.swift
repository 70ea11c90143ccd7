import Foundation
import Kernel

/// A store of conversations as `StoredConversationListService` uses it: each operation reads
/// the facts a rule needs and writes its outcome in one transaction, with the events it
/// records. It decides nothing: who enters how (`ConversationRules.entry`), what a person's
/// place allows (`ConversationRules.entering`, `accepting`, `declining`, `leaving`) and who
/// hears of it (the audiences) are `ConversationRules`'; who is checked, charged and told is
/// the service's. Memory, SQLite and PostgreSQL implement it.
public protocol ConversationListStore: Sendable {
    /// The conversations `member` is a member of, in no order.
    func conversations(of member: UserID) async throws -> [Conversation]

    /// The conversation `id`, or `nil` if there is none.
    func conversation(_ id: ConversationID) async throws -> Conversation?

    /// The one-to-one of the pair whose key (`ConversationRules.directKey`) is `key`, if there is one.
    func direct(key: String) async throws -> ConversationID?

    /// Makes the one-to-one `candidate` of `key` between `starter` and `other` at `now`, `other`
    /// entering as `ConversationRules.entry` says; unless another process made the pair's first:
    /// then that one's id and nobody.
    /// - Returns: the one-to-one's id, and who was not invited, and why.
    func startDirect(_ candidate: ConversationID, key: String, by starter: UserID, with other: UserID, at now: Date) async throws
        -> (id: ConversationID, notInvited: [NotInvited])

    /// Writes a part of the new group `id` (`ConversationRules.writingInParts`): with the
    /// `first`, the conversation titled `title` and its starter; then `people`, some of the
    /// `others` named, each entering as `ConversationRules.entry` says.
    /// - Returns: who was not invited, and why.
    func startGroup(
        _ id: ConversationID, title: String, by starter: UserID, with others: [UserID], adding people: [UserID], first: Bool, at now: Date
    )
        async throws -> [NotInvited]

    /// Runs `work` once no other large write of the store's is running (see `SQLDatabase` and
    /// `PGDatabase`'s `takingTurns`), so that sends wait for one part of a group at most.
    func takingTurns<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T

    /// The invitations waiting for `invitee`: each conversation, who invited them, and when.
    func invitations(of invitee: UserID) async throws -> [(conversation: Conversation, inviter: UserID, at: Date)]

    /// `person` comes to the existing one-to-one `id` by starting it, accepting `other` from now
    /// on, as `ConversationRules.entering` says.
    /// - Returns: whether its members changed.
    func enter(_ id: ConversationID, by person: UserID, accepting other: UserID) async throws -> Bool

    /// `person` accepts their invitation to `id`, as `ConversationRules.accepting` says.
    func accept(_ id: ConversationID, by person: UserID) async throws

    /// `person` declines their invitation to `id`, as `ConversationRules.declining` says.
    func decline(_ id: ConversationID, by person: UserID) async throws

    /// `person` leaves `id`, as `ConversationRules.leaving` says.
    func leave(_ id: ConversationID, by person: UserID) async throws

    /// `person` blocks `other`: they no longer accept them, decline each of their invitations
    /// and leave their one-to-one with them.
    /// - Returns: the one-to-one they left, if they were in it.
    func block(_ other: UserID, by person: UserID) async throws -> ConversationID?

    /// `person` unblocks `other`.
    func unblock(_ other: UserID, by person: UserID) async throws

    /// Whom `person` blocked, by id.
    func blocked(by person: UserID) async throws -> [UserID]

    /// Ticks when `member`'s list may have changed: on every commit to the store, by any
    /// process or instance (SQLite, PostgreSQL), or on a change that concerns them and on any
    /// activity (memory).
    func changes(for member: UserID) async throws -> AsyncStream<Void>
}
