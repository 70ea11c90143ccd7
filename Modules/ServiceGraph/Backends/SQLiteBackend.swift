import Auth
import AuthLive
import Chat
import ChatLive
import ConversationList
import ConversationListLive
import FilesLive
import Foundation
import Kernel
import Profile
import ProfileLive
import SQLStore
import Search
import SearchLive

/// One SQLite file with every feature's migrations, and what the process shares over it: the
/// change monitor, the event feed, the message writer, the membership cache, the password hasher.
final class SQLiteBackend: DatabaseBackend {
    static let migrations =
        AuthSchema.migrations + ProfileSchema.migrations + ConversationListSchema.migrations + SQLNotificationChoiceStore.migrations
        + ChatSchema.migrations + SearchSchema.migrations(.chatAndList) + SQLFilesStore.migrations

    private let database: SQLDatabase
    /// Whether other processes' ended sessions are read (a server's: its sockets close on them).
    private let watchesSessionEnds: Bool
    private let sessionEnds = SessionEndWatch()
    let accounts: any AccountService
    let administration: Administration
    let links: FeatureLinks
    let stores: DatabaseStores
    let botStores: BotStores

    init(_ options: GraphOptions) throws {
        database = try SQLDatabase(path: options.sqlitePath, migrations: Self.migrations, watch: options.soleWriter ? .polling : .fileEvents)
        watchesSessionEnds = options.soleWriter
        let codes = SQLRegistrationCodes(database: database)
        let store = SQLAccountStore(database: database) { account, name, db in
            try SQLProfileRegistry.insert(Profile(id: account.id, email: account.email, displayName: name), db)
        }
        let botStore = SQLBotStore(database: database) { bot, db in try SQLProfileRegistry.insert(ProfileRules.bot(bot.id, named: bot.name), db) }
        let erasure = Deferred<@Sendable (ErasedMessages) async throws -> Int>()
        let stored = StoredAccountService(
            store: store, hasher: BcryptPasswordHasher(cost: options.bcryptCost), digest: SHA256TokenDigest(), clock: options.clock,
            idleLimit: options.sessionIdleLimit, registration: Registration(mode: options.registration, codes: codes),
            resetCodes: SQLResetCodes(database: database),
            erasure: AccountErasureAdapter(messages: erasure, profiles: SQLProfileRegistry(database: database)), bots: botStore)
        accounts = stored
        links = FeatureLinks(
            registry: SQLProfileRegistry(database: database), activity: SQLChatActivityFeed(database: database),
            directory: SQLConversationDirectory(database: database))
        let epoch = try ChatSchema.epoch(of: database)
        let feed = StoreEventFeed(source: SQLEventSource(database: database, epoch: epoch), membership: links.membership)
        // Search's index, kept from this process's first search on, and purged of changed words by
        // the process that changes them.
        let searchIndex = SQLSearchIndex(database: database, source: .chatAndList)
        // Without a folder for its signals (an odd file system), typing reaches this process's readers only.
        let history = SQLChatHistoryStore(database: database, epoch: epoch)
        let files = FileLinks(
            store: try SQLFilesStore(database: database), limits: options.fileLimits, membership: links.membership, clock: options.clock,
            passAfterUpload: !options.soleWriter,
            message: { try await history.message($0, in: $1) })
        let signals: any TypingChannel = (try? SignalFolder(forDatabaseAt: options.sqlitePath)).map(SQLTypingChannel.init) ?? LocalTypingChannel()
        stores = DatabaseStores(
            profiles: SQLProfileStore(database: database), conversations: SQLConversationListStore(database: database),
            choices: SQLNotificationChoiceStore(database: database), chat: history,
            search: SQLSearchStore(database: database, index: searchIndex), files: files,
            writer: MessageWriter(store: SQLMessageStore(database: database, epoch: epoch), feed: feed, forget: { try? await searchIndex.purge() }),
            feed: feed, typing: TypingHub(channel: signals, membership: links.membership), clock: options.clock, budget: options.budget)
        erasure.set { [stores] in try await stores.erasure.erase($0) }
        botStores = BotStores(
            store: botStore, accounts: store, conversations: stores.conversations, clock: options.clock,
            membersChanged: { [membership = links.membership] in membership.forget($0) })
        administration = .stores(
            StoredAdminService.Stores(
                accounts: store, codes: codes, resets: stored.passwordResets, deletion: stored.accountDeletion,
                reports: SQLReportStore(database: database), reported: stores.reported(links.membership),
                shown: SuspensionShownAdapter(profiles: SQLProfileRegistry(database: database)),
                audit: SQLAuditStore(database: database), digest: SHA256TokenDigest(), clock: options.clock, log: options.auditLog,
                everyoneInvites: options.invitesByEveryone ? options.budget : nil))
    }

    func checkStore() async throws {
        try await database.read { try $0.execute(sql: "SELECT 1") }
    }

    /// A server's (the file's sole writer): an operator's suspension from another process closes
    /// its sockets within about a second. A local process needs none: it holds no sockets.
    func watchSessionEnds(_ ended: @escaping @Sendable (String) -> Void) {
        guard watchesSessionEnds else { return }
        let notes = SQLSessionEnds(database: database)
        sessionEnds.start({ try await notes.newlyEnded() }, ended: ended)
    }

    func close() { sessionEnds.stop() }

}
