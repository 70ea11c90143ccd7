import Auth
import AuthLive
import Chat
import ConversationList
import Files
import Foundation
import Kernel
import Profile
import Search

/// The in-memory stores over the seeded mock data (the seeds' "mock application"), shared by
/// every caller's services. Everything, sessions included, lives as long as the process.
final class MemoryBackend: GraphBackend, BotKeeping {
    private let accountStore: InMemoryAccountStore
    let accounts: any AccountService
    let administration: Administration
    let botStores: BotStores
    private let profiles: InMemoryProfileStore
    /// Who hears of a new name: the people who share a conversation with the renamed.
    private let renameAudience: any RenameAudience
    private let conversations: InMemoryConversationListStore
    /// What members chose to be told of, recorded in the same journal as the list's changes.
    private let choices: InMemoryNotificationChoiceStore
    private let clock: any WallClock
    private let chat: InMemoryChatStore
    /// Chat's membership checks and blocks, from the list.
    private let chatMembership: MembershipAdapter
    /// Shared files, in memory.
    private let files: FileLinks

    init(_ options: GraphOptions) {
        clock = options.clock
        let now = options.clock.now()
        let journal = DeferredJournal()
        let directory = Deferred<any ConversationDirectory>()
        profiles = InMemoryProfileStore(profiles: MockData.profiles, journal: journal, conditions: options.memoryConditions)
        renameAudience = RenameAudienceAdapter(directory: directory)
        accountStore = InMemoryAccountStore(
            accounts: MockData.accounts, admins: [MockData.demoAccount.id], seededAt: now, profiles: ProfileProvisioningAdapter(registry: profiles),
            conditions: options.memoryConditions)
        let botStore = InMemoryBotStore(profiles: ProfileProvisioningAdapter(registry: profiles))
        let erasure = Deferred<@Sendable (ErasedMessages) async throws -> Int>()
        let stored = StoredAccountService(
            store: accountStore, hasher: BcryptPasswordHasher(cost: options.bcryptCost), digest: SHA256TokenDigest(), clock: options.clock,
            idleLimit: options.sessionIdleLimit, resetCodes: InMemoryResetCodes(),
            erasure: AccountErasureAdapter(messages: erasure, profiles: profiles), bots: botStore)
        accounts = stored
        let feed = Deferred<any ChatActivityFeed>()
        conversations = InMemoryConversationListStore(
            conversations: MockData.conversations(now: now), users: UserDirectoryAdapter(registry: profiles),
            activity: ActivitySourceAdapter(feed: feed), journal: journal, conditions: options.memoryConditions)
        choices = InMemoryNotificationChoiceStore(journal: journal)
        chatMembership = MembershipAdapter(directory: conversations)
        let chatStore = Deferred<InMemoryChatStore>()
        files = FileLinks(
            store: InMemoryFilesStore(files: MockData.files(now: now), clock: options.clock), limits: options.fileLimits, membership: chatMembership,
            clock: options.clock,
            passAfterUpload: false,
            message: { try await chatStore.get().message($0, in: $1) })
        chat = InMemoryChatStore(
            messages: MockData.messages(now: now), membership: chatMembership, names: UserDirectoryAdapter(registry: profiles), clock: options.clock,
            conditions: options.memoryConditions,
            peer: SimulatedPeer(userIDs: MockData.peers, delay: options.peerDelay, replies: MockData.replies), attachments: files.attachments)
        chatStore.set(chat)
        erasure.set { [chat] in try await chat.erase($0) }
        administration = .stores(
            StoredAdminService.Stores(
                accounts: accountStore, codes: InMemoryRegistrationCodes(), resets: stored.passwordResets, deletion: stored.accountDeletion,
                reports: InMemoryReportStore(),
                reported: ReportedMessagesAdapter(
                    membership: chatMembership, read: { [chat] in await chat.message($0, in: $1) },
                    erase: { [chat] in try await chat.erase($0, in: $1) }),
                shown: SuspensionShownAdapter(profiles: profiles),
                audit: InMemoryAuditStore(), digest: SHA256TokenDigest(), clock: options.clock, log: options.auditLog,
                everyoneInvites: options.invitesByEveryone ? options.budget : nil))
        botStores = BotStores(store: botStore, accounts: accountStore, conversations: conversations, clock: options.clock)
        feed.set(chat)
        journal.journal.set(chat)
        directory.set(conversations)
    }

    func services(for caller: Caller) -> ServiceSet {
        let conversations = StoredConversationListService(
            store: conversations, choices: choices, builder: conversations.builder, caller: caller, clock: clock,
            ownedBots: OwnedBotsAdapter(store: botStores.store))
        let chat = ReactionsAsSeen(
            InMemoryChatService(store: chat, caller: caller), events: InMemoryEventStreamService(store: chat, caller: caller),
            membership: chatMembership, caller: caller)
        return ServiceSet(
            profiles: StoredProfileService(store: profiles, caller: caller, renameAudience: renameAudience), conversations: conversations, chat: chat,
            events: chat, typing: InMemoryTypingService(hub: self.chat.typing, membership: chatMembership, caller: caller),
            search: StoredSearchService(
                store: InMemorySearchStore(corpus: ChatCorpusAdapter(conversations: conversations, chat: chat)), caller: caller),
            files: files.service(for: caller, clock: clock))
    }

    var eventFeed: (any EventFeed)? { chat }

    var typingHub: TypingHub? { chat.typing }

    var membership: (any ConversationMembership)? { chatMembership }

    var fileCleanup: FileCleanup? { files.cleanup }

    func erase(_ which: ErasedMessages) async throws -> Int { try await chat.erase(which) }

    func demoSession() async -> IssuedSession? {
        await accountStore.startSession(for: MockData.demoAccount, digest: SHA256TokenDigest(), at: clock.now())
    }
}
