import Auth
import Chat
import ConversationList
import Foundation
import Kernel
import Profile
// new-feature adds imports above this line

/// The composition root: builds the configured backend's services once and makes every view
/// model from them. The CLI, the REPL and the tests each build their own; nothing is global.
@MainActor
public final class AppContainer {
    /// The configuration it was built from.
    public let settings: Settings
    /// The current profile's session.
    public let sessions: any SessionStore
    /// Sign-up, sign-in, sessions.
    public let auth: any AuthService
    /// Profiles and people search.
    public let profiles: any ProfileService
    /// The conversation list.
    public let conversations: any ConversationListService
    /// Messages.
    public let chat: any ChatService
    private var sharedServices: [ObjectIdentifier: Any] = [:]

    /// Builds the services of `settings.backend`.
    /// - Parameters:
    ///   - sessions: where the session is kept; by default a per-profile file in the state directory.
    ///   - clock: the time source (tests pass a fixed one).
    /// - Throws: `AppError(.unavailable)` when the backend cannot be opened.
    public init(settings: Settings, sessions: (any SessionStore)? = nil, clock: any WallClock = SystemWallClock()) throws {
        self.settings = settings
        let sessions = sessions ?? FileSessionStore(file: settings.sessionFile)
        self.sessions = sessions
        let services: ServiceSet
        switch settings.backend {
        case .memory:
            services = MemoryBackend.makeServices(settings: settings, sessions: sessions, clock: clock)
            if !settings.enables("auth"), try sessions.load() == nil { try sessions.save(MemoryBackend.demoSession) }
        case .sqlite:
            services = try SQLiteBackend.makeServices(settings: settings, sessions: sessions, clock: clock)
        case .remote:
            throw AppError(.unavailable, "the remote backend is not available yet; use --backend sqlite or memory")
        }
        auth = services.auth
        profiles = services.profiles
        conversations = services.conversations
        chat = services.chat
    }

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
}

extension AppContainer: ProfileFactory {
    public func makeProfileViewModel(subject: String?) -> ProfileViewModel { ProfileViewModel(service: profiles, subject: subject) }
    public func makeUserSearchViewModel() -> UserSearchViewModel { UserSearchViewModel(service: profiles) }
}

extension AppContainer: ConversationListFactory {
    public func makeConversationListViewModel() -> ConversationListViewModel { ConversationListViewModel(service: conversations) }
}

extension AppContainer: ChatFactory {
    public func makeChatViewModel(conversationID: ConversationID) -> ChatViewModel {
        ChatViewModel(service: chat, conversationID: conversationID)
    }

    public func makeLiveFeedViewModel(conversationID: ConversationID?) -> LiveFeedViewModel {
        LiveFeedViewModel(service: chat, conversationID: conversationID)
    }
}

// new-feature adds factories above this line
