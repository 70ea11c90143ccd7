import Chat
import ConversationList
import Files
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
    /// The events of the caller's conversations, live and caught up.
    public let events: any EventStreamService
    /// Who is typing where.
    public let typing: any TypingService
    /// Finding messages.
    public let search: any SearchService
    /// Sharing files.
    public let files: any FilesService

    /// A set of these services.
    public init(
        profiles: any ProfileService, conversations: any ConversationListService, chat: any ChatService, events: any EventStreamService,
        typing: any TypingService, search: any SearchService, files: any FilesService
    ) {
        self.profiles = profiles
        self.conversations = conversations
        self.chat = chat
        self.events = events
        self.typing = typing
        self.search = search
        self.files = files
    }
}
