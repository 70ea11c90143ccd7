import Auth
import Chat
import ConversationList
import Files
import Foundation
import Kernel
import Profile
import Search
import ServiceGraph

// new-feature adds imports above this line

/// The composition root of the CLI and the REPL: opens the service graph from the settings,
/// keeps this device's session, and makes every view model with the services of whoever is
/// signed in here. The CLI, the REPL and the tests each build their own; nothing is global.
@MainActor
public final class AppContainer {
    /// The configuration it was built from.
    public let settings: Settings
    /// What the process shares: storage, change feed, caches.
    public let graph: ServiceGraph
    /// This device's session of the current profile.
    public let sessions: any SessionStore
    /// Sign-up, sign-in, the session on this device.
    public let auth: any AuthService
    /// Where this device keeps unsent messages (remote backend only), used once
    /// `keepUnsentMessages()` is called.
    private let outboxStore: (any OutboxStore)?
    private var outboxes: [UserID: Outbox] = [:]
    private var keepsUnsent = false
    private var current: (token: String?, services: ServiceSet)?
    private var sharedServices: [ObjectIdentifier: Any] = [:]

    /// The variable a script gives an API token in, for every command of the process.
    public nonisolated static let tokenVariable = "MESSAGEAI_TOKEN"

    /// Opens the graph of `settings.backend`.
    /// - Parameters:
    ///   - sessions: where the session is kept; by default the profile's session file (the
    ///     memory backend, whose accounts live as long as the process, keeps it in memory).
    ///   - clock: the time source (tests pass one they control).
    ///   - token: an API token to act with instead (a bot's: `--token-stdin`, `MESSAGEAI_TOKEN`),
    ///     kept for this process only and checked now.
    /// - Throws: `AppError(.unavailable)` when the backend cannot be opened; `.notSignedIn` for a
    ///   token that is not valid.
    public init(settings: Settings, sessions: (any SessionStore)? = nil, token: String? = nil, clock: any WallClock = SystemWallClock()) async throws
    {
        self.settings = settings
        var options = settings.graphOptions
        options.clock = clock
        graph = try ServiceGraph(options)
        let sessions =
            if let token {
                InMemorySessionStore(Session(userID: try await graph.accounts.account(for: token).id, email: "", token: token))
            } else {
                sessions ?? (settings.backend == .memory ? InMemorySessionStore() : FileSessionStore(file: settings.sessionFile))
            }
        self.sessions = sessions
        auth = SessionAuthService(accounts: graph.accounts, store: sessions)
        outboxStore = settings.backend == .remote ? FileOutboxStore(file: settings.outboxFile) : nil
        if !settings.enables("auth"), try sessions.load() == nil, let demo = await graph.demoSession() {
            try sessions.save(Session(demo))
        }
    }

    /// The services of whoever is signed in on this device. They are made again only when this
    /// process signs in or out: another process signing in on the same profile changes nothing
    /// here, and a session revoked elsewhere makes every call fail with "not signed in".
    public var services: ServiceSet {
        let session = Result { try sessions.load() }
        let token = (try? session.get())??.token
        if let current, current.token == token { return current.services }
        // A session file that cannot be used (damaged, not a regular file) says why on every call.
        let caller = if case .failure(let error) = session { Caller { throw error } } else { graph.caller(token: token) }
        let services = graph.services(for: caller)
        current = (token, services)
        return services
    }

    /// The unsent messages of whoever is signed in here (remote backend only).
    public var outbox: Outbox? {
        guard let outboxStore, let owner = (try? sessions.load())??.userID else { return nil }
        if let outbox = outboxes[owner] { return outbox }
        let outbox = Outbox(store: outboxStore, owner: owner)
        outboxes[owner] = outbox
        return outbox
    }

    /// From now on, a message that cannot be sent because the server is unreachable is kept in
    /// this device's outbox and sent when it is back (the REPL's way; the CLI fails instead, so a
    /// script knows). Starts sending what an earlier run kept.
    public func keepUnsentMessages() async {
        guard outboxStore != nil, !keepsUnsent else { return }
        keepsUnsent = true
        await outbox?.flush(through: chat)
    }

    /// Profiles and people search, for the signed-in user.
    public var profiles: any ProfileService { services.profiles }
    /// The conversation list, for the signed-in user.
    public var conversations: any ConversationListService { services.conversations }
    /// Messages, for the signed-in user.
    public var chat: any ChatService { services.chat }
    /// The events of the signed-in user's conversations, live and caught up.
    public var events: any EventStreamService { services.events }
    /// Who types in the signed-in user's conversations.
    public var typing: any TypingService { services.typing }

    /// The one instance of a service that has no backend-specific implementation (a feature made
    /// by `new-feature` starts with its in-memory service only), made on first use.
    public func sharedService<Service>(_ make: () -> Service) -> Service {
        let key = ObjectIdentifier(Service.self)
        if let service = sharedServices[key] as? Service { return service }
        let service = make()
        sharedServices[key] = service
        return service
    }

    /// Where the REPL keeps this profile's input history.
    public var historyFile: URL {
        settings.stateDirectory.appendingPathComponent("history", isDirectory: true).appendingPathComponent(settings.profile)
    }
}

extension AppContainer: AuthFactory {
    public func makeSignInViewModel() -> SignInViewModel { SignInViewModel(auth: auth) }
    public func makeSessionViewModel() -> SessionViewModel { SessionViewModel(auth: auth) }
    public func makeAdminViewModel() -> AdminViewModel { AdminViewModel(service: graph.admin(for: signedInCaller)) }
    public func makeReportViewModel() -> ReportViewModel { ReportViewModel(service: graph.reports(for: signedInCaller)) }
    public func makeBotsViewModel() -> BotsViewModel {
        BotsViewModel(service: graph.bots(for: signedInCaller), server: settings.backend == .remote ? settings.graphOptions.remoteURL : nil)
    }

    /// Whoever is signed in on this device, for the services outside `ServiceSet` (Auth's).
    private var signedInCaller: Caller { graph.caller(token: (try? sessions.load())??.token) }
}

extension AppContainer: ProfileFactory {
    public func makeProfileViewModel(subject: String?) -> ProfileViewModel { ProfileViewModel(service: profiles, subject: subject) }
    public func makeUserSearchViewModel() -> UserSearchViewModel { UserSearchViewModel(service: profiles) }
}

extension AppContainer: ConversationListFactory {
    public func makeConversationListViewModel(pageSize: Int) -> ConversationListViewModel {
        ConversationListViewModel(service: conversations, pageSize: pageSize)
    }
    public func makeInvitationsViewModel() -> InvitationsViewModel { InvitationsViewModel(service: conversations) }
    public func makeBlockListViewModel() -> BlockListViewModel { BlockListViewModel(service: conversations) }
}

extension AppContainer: ChatFactory {
    public func makeChatViewModel(conversationID: ConversationID) -> ChatViewModel {
        ChatViewModel(service: chat, events: services.events, conversationID: conversationID, outbox: keepsUnsent ? outbox : nil)
    }

    public func makeTypingViewModel(conversationID: ConversationID) -> TypingViewModel {
        TypingViewModel(service: services.typing, conversationID: conversationID)
    }

    public func makeLiveFeedViewModel(conversationID: ConversationID?, after: EventCursor?, changes: Bool) -> LiveFeedViewModel {
        LiveFeedViewModel(service: services.events, conversationID: conversationID, after: after, changes: changes)
    }

    public func makeReceiptPrivacyViewModel() -> ReceiptPrivacyViewModel { ReceiptPrivacyViewModel(service: chat) }
}

extension AppContainer: SearchFactory {
    public func makeSearchViewModel() -> SearchViewModel { SearchViewModel(service: services.search) }
    public func makeMentionsViewModel() -> MentionsViewModel { MentionsViewModel(service: services.search) }
}
extension AppContainer: FilesFactory {
    public func makeFilesViewModel(conversationID: ConversationID) -> FilesViewModel {
        FilesViewModel(service: services.files, conversationID: conversationID)
    }

    public var files: any FilesService { services.files }
}
// new-feature adds factories above this line
