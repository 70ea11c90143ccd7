import Auth
import Chat
import Files
import Kernel
import RemoteClient

/// What one backend brings to the graph: its account side, opened once, and cheap per-caller
/// service sets over its shared resources.
protocol GraphBackend: Sendable {
    /// Accounts and sessions.
    var accounts: any AccountService { get }
    /// Where looking after the accounts happens: over the store where the process reaches it
    /// (memory, SQLite, PostgreSQL), else through the server.
    var administration: Administration { get }
    /// What bots' API tokens and hooks' secrets stand for, where the process reaches their store
    /// (`nil` on the remote backend, whose server decides).
    var botCredentials: BotCredentials? { get }
    /// The bots, tokens and hooks `caller` keeps, each new one paid from `budget`; `revoked`
    /// hears of each one revoked.
    func bots(for caller: Caller, budget: UsageBudget, revoked: @escaping @Sendable () -> Void) -> any BotService
    /// The services of one caller.
    func services(for caller: Caller) -> ServiceSet
    /// The process's one feed of new events, where the store is in this process (memory, SQLite).
    var eventFeed: (any EventFeed)? { get }
    /// The process's one hub of typing notices, where the store is reached from this process
    /// (`nil` on the remote backend, whose server has it).
    var typingHub: TypingHub? { get }
    /// Chat's membership checks and blocks, where the store is reached from this process.
    var membership: (any ConversationMembership)? { get }
    /// The clean-up of the files the store keeps, where it keeps them and is reached from here.
    var fileCleanup: FileCleanup? { get }
    /// Deletes the messages `which` names for everyone in the background (a retention pass:
    /// each deletion after the sends of the moment), where the store is reached from here
    /// (`MessageErasure`); how many.
    func erase(_ which: ErasedMessages) async throws -> Int
    /// How many events the store has that the process's feed has not handed out yet (`nil`
    /// where it has none, or it is not running).
    func feedLag() async -> Int64?
    /// A session for the demo user without a password, where the backend has one (memory).
    func demoSession() async -> IssuedSession?
    /// Reads something trivial from the store: throws when it cannot (nothing to read on memory).
    func checkStore() async throws
    /// Tells `ended` of each session that ends in a store other processes share, by its token's
    /// digest, until `close()` (nothing where no other process serves the store).
    func watchSessionEnds(_ ended: @escaping @Sendable (String) -> Void)
    /// Lets go of what the backend holds outside the process (a database's connections).
    func close()
}

/// Where looking after a backend's accounts happens.
enum Administration: Sendable {
    /// Over the stores the process reaches.
    case stores(StoredAdminService.Stores)
    /// Through the server's admin API.
    case server(RemoteConnection)
}

/// A backend that keeps bots in a store the process reaches (memory, SQLite, PostgreSQL).
protocol BotKeeping: GraphBackend {
    var botStores: BotStores { get }
}

extension BotKeeping {
    var botCredentials: BotCredentials? { botStores.credentials }

    func bots(for caller: Caller, budget: UsageBudget, revoked: @escaping @Sendable () -> Void) -> any BotService {
        botStores.service(for: caller, budget: budget, revoked: revoked)
    }
}

extension GraphBackend {
    var typingHub: TypingHub? { nil }
    var membership: (any ConversationMembership)? { nil }
    var fileCleanup: FileCleanup? { nil }
    func feedLag() async -> Int64? { nil }
    func checkStore() async throws {}
    func watchSessionEnds(_ ended: @escaping @Sendable (String) -> Void) {}
    func close() {}
}
