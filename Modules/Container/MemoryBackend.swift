import Auth
import AuthLive
import Chat
import ConversationList
import Foundation
import Kernel
import Profile

/// Builds the in-memory services over the seeded mock data: the seeds' "mock application".
enum MemoryBackend {
    static func makeServices(settings: Settings, sessions: any SessionStore, clock: any WallClock) -> ServiceSet {
        let conditions = settings.memoryConditions
        let now = clock.now()
        let profiles = InMemoryProfileService(profiles: MockData.profiles, sessions: sessions, conditions: conditions)
        let auth = InMemoryAuthService(
            accounts: MockData.accounts,
            hasher: BcryptPasswordHasher(cost: settings.int("auth.bcryptCost")),
            sessions: sessions,
            profiles: ProfileProvisioningAdapter(registry: profiles),
            conditions: conditions
        )
        let feed = Deferred<any ChatActivityFeed>()
        let conversations = InMemoryConversationListService(
            conversations: MockData.conversations(now: now),
            users: UserDirectoryAdapter(profiles: profiles),
            activity: ActivitySourceAdapter(feed: feed),
            sessions: sessions,
            clock: clock,
            conditions: conditions
        )
        let chat = InMemoryChatService(
            messages: MockData.messages(now: now),
            membership: MembershipAdapter(directory: conversations),
            sessions: sessions,
            clock: clock,
            conditions: conditions,
            peer: SimulatedPeer(userIDs: MockData.peers, delay: .milliseconds(settings.int("memory.peerDelayMs")),
                                replies: MockData.replies)
        )
        feed.set(chat)
        return ServiceSet(auth: auth, profiles: profiles, conversations: conversations, chat: chat)
    }

    /// A session for the demo user, used when Auth is not among the enabled features.
    static let demoSession = Session(userID: MockData.ada.id, email: MockData.ada.email, token: "demo")
}
