import ConversationList
import Chat
import Kernel
import Profile
import Search

/// The services of one caller, wired to each other. Cheap to build: everything heavy is the
/// graph's, shared by every set.
public struct ServiceSet: Sendable {
    /// Profiles and people search.
    public let profiles: any ProfileService
    /// The conversation list.
    public let conversations: any ConversationListService
    /// Messages.
    public let chat: any ChatService
    /// Finding messages.
    public let search: any SearchService

    /// A set of these services; without `search`, a scan of the caller's messages through the
    /// other two (`InMemorySearchService` over Chat, spending from `budget`), for a backend with
    /// no index of its own.
    public init(profiles: any ProfileService, conversations: any ConversationListService, chat: any ChatService, caller: Caller,
                search: (any SearchService)? = nil, budget: UsageBudget = .unlimited) {
        self.profiles = profiles
        self.conversations = conversations
        self.chat = chat
        self.search = search ?? InMemorySearchService(corpus: ChatCorpusAdapter(conversations: conversations, chat: chat), caller: caller, budget: budget)
    }
}
