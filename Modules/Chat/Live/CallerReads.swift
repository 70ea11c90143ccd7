import Chat
import Kernel

/// What one caller's chat and event services do the same way on every store when they read:
/// membership checks, pages cut and paid for, cursors checked against the store
/// (`StoredChatService`, `StoredEventStreamService`).
struct CallerReads: Sendable {
    let membership: any ConversationMembership
    let caller: Caller
    let budget: UsageBudget
    let epoch: String

    /// The caller, once checked to be a member of `conversationID`.
    @discardableResult
    func authorize(_ conversationID: ConversationID) async throws -> UserID {
        try await membership.require(caller, to: .read, in: conversationID).me
    }

    /// The caller as a reader of `conversationID`, once checked to be a member: its members, and
    /// the people apart from the caller (`ChatRules.apart`), whom no read receipt reaches or comes from.
    func reader(of conversationID: ConversationID) async throws -> (me: UserID, members: [UserID], apart: Set<UserID>) {
        let (me, members) = try await membership.require(caller, to: .read, in: conversationID)
        return (me, members, try await membership.people(apartFrom: me, under: try await caller.principal().grant))
    }

    /// A catch-up read for the caller: what `read` returns, cut to a page (`ChatRules.catchUpPage`)
    /// and paid for (`paying`).
    nonisolated(nonsending) func catchUp<Item: WireWeighed>(_ read: () async throws -> [Item]) async throws -> [Item] {
        try await paying(\.self) { ChatRules.catchUpPage(try await read()) }
    }

    /// A page of history for the caller: what `read` returns, cut to `ChatRules.pageBytes`
    /// (`ChatRules.historyPage`) and paid for (`paying`).
    nonisolated(nonsending) func history(_ read: () async throws -> MessagePage) async throws -> MessagePage {
        try await paying(\.messages) { ChatRules.historyPage(try await read()) }
    }

    /// `read`, paid for from the caller's look-up budget (`ChatRules.readCost`): one unit before
    /// it runs, so that a reader past the budget is refused before anything is read, the rest by
    /// the `items` it returns.
    private nonisolated(nonsending) func paying<Read, Item: WireWeighed>(_ items: (Read) -> [Item], _ read: () async throws -> Read) async throws
        -> Read
    {
        // Who reads was checked before: a bot's token reads only what `authorize` allowed it.
        let me = try await caller.principal().id
        try budget.spend(.lookup, by: me)
        let result = try await read()
        let rest = ChatRules.readCost(of: items(result)) - 1
        if rest > 0 { try budget.spend(.lookup, by: me, cost: rest) }
        return result
    }

    /// Refuses a cursor of another store, or past `newest`, this store's last position: a copy
    /// restored from elsewhere.
    func check(_ cursor: EventCursor, newest: () async throws -> Int64) async throws {
        guard cursor.epoch == epoch, cursor.position <= (try await newest()) else { throw ChatRules.foreignCursor(cursor) }
    }
}
