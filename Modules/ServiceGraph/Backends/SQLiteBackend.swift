import Auth
import AuthLive
import Chat
import ChatLive
import ConversationList
import ConversationListLive
import Foundation
import Kernel
import Profile
import ProfileLive
import SQLStore
import Search
import SearchLive

/// One SQLite file with every feature's migrations, and what the process shares over it: the
/// change monitor, the event feed, the message writer, the membership cache, the password hasher.
final class SQLiteBackend: GraphBackend {
    static let migrations =
        AuthSchema.migrations + ProfileSchema.migrations + ConversationListSchema.migrations
        + ChatSchema.migrations + SearchSchema.migrations(.chatAndList)

    private let database: SQLDatabase
    let accounts: any AccountService
    private let links: FeatureLinks
    private let feed: StoreEventFeed
    private let writer: MessageWriter
    private let typing: TypingHub
    /// Search's index, kept from this process's first search on, and purged of changed words by
    /// the process that changes them.
    private let searchIndex: SQLSearchIndex
    private let epoch: String
    private let clock: any WallClock
    private let budget: UsageBudget

    init(_ options: GraphOptions) throws {
        database = try SQLDatabase(path: options.sqlitePath, migrations: Self.migrations, watch: options.soleWriter ? .polling : .fileEvents)
        clock = options.clock
        budget = options.budget
        accounts = StoredAccountService(
            store: SQLAccountStore(database: database) { account, name, db in
                try SQLProfileRegistry.insert(Profile(id: account.id, email: account.email, displayName: name), db)
            },
            hasher: BcryptPasswordHasher(cost: options.bcryptCost), digest: SHA256TokenDigest(), clock: options.clock,
            idleLimit: options.sessionIdleLimit)
        links = FeatureLinks(
            registry: SQLProfileRegistry(database: database), activity: SQLChatActivityFeed(database: database),
            directory: SQLConversationDirectory(database: database))
        epoch = try ChatSchema.epoch(of: database)
        feed = StoreEventFeed(source: SQLEventSource(database: database, epoch: epoch), membership: links.membership)
        let searchIndex = SQLSearchIndex(database: database, source: .chatAndList)
        self.searchIndex = searchIndex
        writer = MessageWriter(store: SQLMessageStore(database: database, epoch: epoch), feed: feed, forget: { try? await searchIndex.purge() })
        // Without a folder for its signals (an odd file system), typing reaches this process's readers only.
        let signals: any TypingChannel = (try? SignalFolder(forDatabaseAt: options.sqlitePath)).map(SQLTypingChannel.init) ?? LocalTypingChannel()
        typing = TypingHub(channel: signals, membership: links.membership)
    }

    func checkStore() async throws {
        try await database.read { try $0.execute(sql: "SELECT 1") }
    }

    func services(for caller: Caller) -> ServiceSet {
        let membership = links.membership
        return ServiceSet(
            profiles: StoredProfileService(
                store: SQLProfileStore(database: database), caller: caller, renameAudience: links.renameAudience, budget: budget),
            conversations: StoredConversationListService(
                store: SQLConversationListStore(database: database), builder: links.builder, caller: caller, clock: clock, budget: budget,
                membersChanged: { membership.forget($0) }),
            chat: ReactionsAsSeen(
                SQLChatService(
                    database: database, epoch: epoch, writer: writer, membership: membership, names: links.names,
                    feed: feed, typing: typing, caller: caller, clock: clock, budget: budget),
                membership: membership, caller: caller),
            search: StoredSearchService(store: SQLSearchStore(database: database, index: searchIndex), caller: caller, budget: budget))
    }

    var eventFeed: (any EventFeed)? { feed }

    var typingHub: TypingHub? { typing }

    var membership: (any ConversationMembership)? { links.membership }

    func feedLag() async -> Int64? { await feed.lag() }

    func demoSession() async -> IssuedSession? { nil }
}
