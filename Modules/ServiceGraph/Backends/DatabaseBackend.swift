import Auth
import Chat
import ChatLive
import ConversationList
import Files
import Kernel
import Profile
import Search

/// What a database backend (SQLite's or PostgreSQL's) shares among its callers: the stores one
/// caller's services run over, which hold no caller and are made once, the process's writer,
/// event feed and typing hub, its clock and the budget every caller spends from.
struct DatabaseStores: Sendable {
    let profiles: any ProfileStore
    let conversations: any ConversationListStore
    let choices: any NotificationChoiceStore
    let chat: any ChatHistoryStore
    let search: any SearchStore
    /// Files: their store, clean-up and links.
    let files: FileLinks
    let writer: MessageWriter
    let feed: StoreEventFeed
    let typing: TypingHub
    let clock: any WallClock
    let budget: UsageBudget

    /// Messages deleted for everyone without a caller: a deleted account's, or past retention.
    var erasure: MessageErasure {
        MessageErasure(store: chat, writer: writer, attachments: files.attachments, clock: clock)
    }

    /// What reports read and delete of messages, checked against `membership`.
    func reported(_ membership: any ConversationMembership) -> ReportedMessagesAdapter {
        let (chat, erasure) = (chat, erasure)
        return ReportedMessagesAdapter(
            membership: membership, read: { try await chat.message($0, in: $1) }, erase: { try await erasure.erase($0, in: $1) })
    }
}

/// A backend over a database, SQLite's or PostgreSQL's: what it gives its callers is linked the
/// same way over both, from its `links` and `stores`.
protocol DatabaseBackend: BotKeeping {
    var links: FeatureLinks { get }
    var stores: DatabaseStores { get }
}

extension DatabaseBackend {
    func services(for caller: Caller) -> ServiceSet {
        let (stores, membership) = (stores, links.membership)
        let seen = ReactionsAsSeen(
            StoredChatService(
                store: stores.chat, writer: stores.writer, membership: membership, names: links.recentNames, caller: caller, clock: stores.clock,
                budget: stores.budget, attachments: stores.files.attachments),
            events: StoredEventStreamService(store: stores.chat, feed: stores.feed, membership: membership, caller: caller, budget: stores.budget),
            membership: membership, caller: caller)
        return ServiceSet(
            profiles: StoredProfileService(store: stores.profiles, caller: caller, renameAudience: links.renameAudience, budget: stores.budget),
            conversations: StoredConversationListService(
                store: stores.conversations, choices: stores.choices, builder: links.builder, caller: caller, clock: stores.clock,
                budget: stores.budget,
                membersChanged: { membership.forget($0) }, blocksChanged: { membership.forgetBlocks(of: $0) },
                ownedBots: OwnedBotsAdapter(store: botStores.store)),
            chat: seen, events: seen, typing: InMemoryTypingService(hub: stores.typing, membership: membership, caller: caller),
            search: StoredSearchService(store: stores.search, caller: caller, budget: stores.budget),
            files: stores.files.service(for: caller, clock: stores.clock, budget: stores.budget))
    }

    var eventFeed: (any EventFeed)? { stores.feed }
    var typingHub: TypingHub? { stores.typing }

    var membership: (any ConversationMembership)? { links.membership }

    var fileCleanup: FileCleanup? { stores.files.cleanup }

    func erase(_ which: ErasedMessages) async throws -> Int { try await stores.erasure.erase(which, inBackground: true) }

    func feedLag() async -> Int64? { await stores.feed.lag() }

    func demoSession() async -> IssuedSession? { nil }
}
