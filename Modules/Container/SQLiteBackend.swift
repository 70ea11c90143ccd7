import Auth
import AuthLive
import Chat
import ChatLive
import ConversationList
import ConversationListLive
import Kernel
import Profile
import ProfileLive
import SQLStore

/// Builds the SQLite services over one database file, with every feature's migrations.
enum SQLiteBackend {
    static let migrations = AuthSchema.migrations + ProfileSchema.migrations + ConversationListSchema.migrations
        + ChatSchema.migrations

    static func makeServices(settings: Settings, sessions: any SessionStore, clock: any WallClock) throws -> ServiceSet {
        let database = try SQLDatabase(path: settings.sqlitePath, migrations: migrations)
        let profiles = SQLProfileService(database: database, sessions: sessions)
        let auth = SQLAuthService(database: database, hasher: BcryptPasswordHasher(cost: settings.int("auth.bcryptCost")),
                                  sessions: sessions, profiles: ProfileProvisioningAdapter(registry: profiles), clock: clock)
        let feed = Deferred<any ChatActivityFeed>()
        let conversations = SQLConversationListService(database: database, users: UserDirectoryAdapter(profiles: profiles),
                                                       activity: ActivitySourceAdapter(feed: feed), sessions: sessions, clock: clock)
        let chat = SQLChatService(database: database, membership: MembershipAdapter(directory: conversations),
                                  sessions: sessions, clock: clock)
        feed.set(chat)
        return ServiceSet(auth: auth, profiles: profiles, conversations: conversations, chat: chat)
    }
}
