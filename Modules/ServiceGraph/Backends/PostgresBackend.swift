import Auth
import AuthLive
import Chat
import ChatLive
import ConversationList
import ConversationListLive
import FilesLive
import Foundation
import Kernel
import Logging
import PostgresStore
import Profile
import ProfileLive
import Search
import SearchLive
import Synchronization

/// A PostgreSQL database with every feature's migrations, shared by several server instances,
/// and what this instance shares over it: the event feed, the message writer, the membership
/// cache, the password hasher.
final class PostgresBackend: DatabaseBackend {
    static let migrations =
        PostgresAccountStore.migrations + PostgresProfileRegistry.migrations + PostgresConversationDirectory.migrations
        + PostgresNotificationChoiceStore.migrations
        + PostgresChatSchema.migrations + PostgresSearchIndex.migrations + PostgresFilesStore.migrations

    let database: PGDatabase
    let accounts: any AccountService
    let administration: Administration
    let links: FeatureLinks
    let stores: DatabaseStores
    let botStores: BotStores
    /// The task that reads which sessions ended (`watchSessionEnds`).
    private let sessionEnds = SessionEndWatch()

    /// Connects to the database of `options.postgresURL` and migrates it.
    /// - Throws: `AppError(.usage)` without a usable URL; `.unavailable` when the database cannot be reached.
    static func open(_ options: GraphOptions) async throws -> PostgresBackend {
        guard let url = options.postgresURL else { throw AppError(.usage, "the postgres backend needs a database URL (postgres.url)") }
        var logger = Logger(label: "messageai.postgres")
        logger.logLevel = .warning
        let database = try await PGDatabase.open(url, migrations: migrations, connections: options.postgresConnections, logger: logger)
        return PostgresBackend(options, database: database, epoch: try await PostgresChatSchema.epoch(of: database))
    }

    private init(_ options: GraphOptions, database: PGDatabase, epoch: String) {
        self.database = database
        let codes = PostgresRegistrationCodes(database: database)
        let store = PostgresAccountStore(database: database) { account, name, transaction in
            try await PostgresProfileRegistry.insert(Profile(id: account.id, email: account.email, displayName: name), transaction)
        }
        let botStore = PostgresBotStore(database: database) { bot, transaction in
            try await PostgresProfileRegistry.insert(ProfileRules.bot(bot.id, named: bot.name), transaction)
        }
        let erasure = Deferred<@Sendable (ErasedMessages) async throws -> Int>()
        let stored = StoredAccountService(
            store: store, hasher: BcryptPasswordHasher(cost: options.bcryptCost), digest: SHA256TokenDigest(), clock: options.clock,
            idleLimit: options.sessionIdleLimit, registration: Registration(mode: options.registration, codes: codes),
            resetCodes: PostgresResetCodes(database: database),
            erasure: AccountErasureAdapter(messages: erasure, profiles: PostgresProfileRegistry(database: database)), bots: botStore)
        accounts = stored
        links = FeatureLinks(
            registry: PostgresProfileRegistry(database: database), activity: PostgresChatActivityFeed(database: database),
            directory: PostgresConversationDirectory(database: database))
        let feed = StoreEventFeed(source: PostgresEventSource(database: database, epoch: epoch), membership: links.membership)
        // Search's index, kept from this instance's first search on.
        let searchIndex = PostgresSearchIndex(database: database, source: .chatAndList, logger: database.logger)
        let history = PostgresChatHistoryStore(database: database, epoch: epoch)
        let files = FileLinks(
            store: PostgresFilesStore(database: database, clock: options.clock), limits: options.fileLimits, membership: links.membership,
            clock: options.clock, passAfterUpload: !options.soleWriter, message: { try await history.message($0, in: $1) })
        stores = DatabaseStores(
            profiles: PostgresProfileStore(database: database), conversations: PostgresConversationListStore(database: database),
            choices: PostgresNotificationChoiceStore(database: database), chat: history,
            search: PostgresSearchStore(database: database, index: searchIndex), files: files,
            writer: MessageWriter(store: PostgresMessageStore(database: database, epoch: epoch), feed: feed), feed: feed,
            typing: TypingHub(channel: PostgresTypingChannel(database: database), membership: links.membership), clock: options.clock,
            budget: options.budget)
        erasure.set { [stores] in try await stores.erasure.erase($0) }
        botStores = BotStores(
            store: botStore, accounts: store, conversations: stores.conversations, clock: options.clock,
            membersChanged: { [membership = links.membership] in membership.forget($0) })
        administration = .stores(
            StoredAdminService.Stores(
                accounts: store, codes: codes, resets: stored.passwordResets, deletion: stored.accountDeletion,
                reports: PostgresReportStore(database: database), reported: stores.reported(links.membership),
                shown: SuspensionShownAdapter(profiles: PostgresProfileRegistry(database: database)),
                audit: PostgresAuditStore(database: database), digest: SHA256TokenDigest(), clock: options.clock, log: options.auditLog,
                everyoneInvites: options.invitesByEveryone ? options.budget : nil))
    }

    func checkStore() async throws {
        _ = try await database.query("SELECT 1")
    }

    func watchSessionEnds(_ ended: @escaping @Sendable (String) -> Void) {
        let notes = PostgresSessionEnds(database: database)
        sessionEnds.start({ try await notes.newlyEnded() }, ended: ended)
    }

    func close() {
        sessionEnds.stop()
        database.close()
    }
}
