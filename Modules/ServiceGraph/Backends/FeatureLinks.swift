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
    /// People's names from Profile, for the list's titles.
    let names: UserDirectoryAdapter
    /// The same names kept a moment, for Chat's mentions: a burst of sends reads them once.
    let recentNames: RecentNames
    let renameAudience: RenameAudienceAdapter

    init(registry: any ProfileRegistry, activity: any ChatActivityFeed, directory: any ConversationDirectory) {
        names = UserDirectoryAdapter(registry: registry)
        recentNames = RecentNames(names)
        builder = SummaryBuilder(
            users: names,
            activity: ActivitySourceAdapter(feed: Deferred<any ChatActivityFeed>(activity)))
        membership = MembershipCache(MembershipAdapter(directory: directory))
        renameAudience = RenameAudienceAdapter(directory: Deferred(directory))
    }
}
