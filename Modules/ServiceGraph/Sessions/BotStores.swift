import Auth
import AuthLive
import ConversationList
import Kernel

/// Bots where a process reaches their store (memory, SQLite, PostgreSQL): the store, what its
/// credentials stand for, and how a bot enters a conversation.
struct BotStores: Sendable {
    let store: any BotStore
    let credentials: BotCredentials
    let admission: BotAdmission
    let clock: any WallClock

    /// Over `store`, owners' standing read from `accounts`, bots brought into conversations of
    /// `conversations` (`membersChanged` told of each).
    init(
        store: any BotStore, accounts: any AccountStore, conversations: any ConversationListStore, clock: any WallClock,
        membersChanged: @escaping @Sendable (ConversationID) -> Void = { _ in }
    ) {
        self.store = store
        credentials = BotCredentials(store: store, accounts: accounts, digest: SHA256TokenDigest(), clock: clock)
        admission = BotAdmission(store: conversations, membersChanged: membersChanged)
        self.clock = clock
    }

    /// The bot service of `caller`, paid from `budget`; `revoked` hears of each credential revoked.
    func service(for caller: Caller, budget: UsageBudget, revoked: @escaping @Sendable () -> Void) -> StoredBotService {
        StoredBotService(
            store: store, membership: BotMembershipAdapter(admission: admission), digest: SHA256TokenDigest(), clock: clock, caller: caller,
            budget: budget, revoked: revoked)
    }
}
