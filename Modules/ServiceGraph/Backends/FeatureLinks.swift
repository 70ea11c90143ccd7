import Chat
import ChatLive
import ConversationList
import Profile

/// What a store's features share through the adapters (`Adapters.swift`), made the same way over SQLite and
/// PostgreSQL: the list's summaries (names from Profile, activity from Chat), people's names, Chat's cached
/// membership checks and Profile's rename audience (both from the list's directory).
struct FeatureLinks: Sendable {
    let builder: SummaryBuilder
    let membership: MembershipCache
    /// People's names from Profile, for the list's titles and Chat's mentions.
    let names: UserDirectoryAdapter
    let renameAudience: RenameAudienceAdapter

    init(registry: any ProfileRegistry, activity: any ChatActivityFeed, directory: any ConversationDirectory) {
        names = UserDirectoryAdapter(registry: registry)
        builder = SummaryBuilder(
            users: names,
            activity: ActivitySourceAdapter(feed: Deferred<any ChatActivityFeed>(activity)))
        membership = MembershipCache(MembershipAdapter(directory: directory))
        renameAudience = RenameAudienceAdapter(directory: Deferred(directory))
    }
}
