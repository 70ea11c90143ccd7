import Auth
import Chat
import ConversationList
import Kernel
import Profile
import Search
import SearchLive

// Where features meet: each adapter implements one feature's port with another's service, so
// that no feature imports another (docs/architecture.md, "Where features meet").

/// The list's last message and unread counts (of messages and mentions) come from Chat's activity feed.
struct ActivitySourceAdapter: ActivitySource {
    let feed: Deferred<any ChatActivityFeed>

    func activity(of conversationIDs: [ConversationID], for reader: UserID) async throws -> [ConversationID: ConversationActivity] {
        try await feed.get().activity(of: conversationIDs, for: reader).mapValues { activity in
            ConversationActivity(
                lastMessage: activity.lastMessage.map {
                    MessagePreview(id: $0.id, senderID: $0.senderID, text: $0.text, sentAt: $0.sentAt, deleted: $0.deleted)
                },
                unreadCount: activity.unreadCount,
                unreadMentions: activity.unreadMentions
            )
        }
    }

    func activityChanges() async throws -> AsyncStream<Void> {
        try await feed.get().activityChanges()
    }
}

/// Chat's membership checks ask the list's directory.
struct MembershipAdapter: ConversationMembership {
    let directory: any ConversationDirectory

    nonisolated(nonsending) func members(of conversationID: ConversationID) async throws -> [UserID]? {
        try await directory.members(of: conversationID)
    }

    func blocks(involving user: UserID) async throws -> (blocked: Set<UserID>, blockers: Set<UserID>) {
        try await directory.blocks(involving: user)
    }
}

/// Auth's sign-up creates the profile through Profile's registry.
struct ProfileProvisioningAdapter: ProfileProvisioning {
    let registry: any ProfileRegistry

    func createProfile(for account: Account, displayName: String) async throws {
        try await registry.createProfile(Profile(id: account.id, email: account.email, displayName: displayName))
    }

    func createProfile(of bot: Bot) async throws { try await registry.createProfile(ProfileRules.bot(bot.id, named: bot.name)) }
}

/// Auth's bots enter conversations through ConversationList's rule for it.
struct BotMembershipAdapter: BotMembership {
    let admission: BotAdmission

    func admit(_ bot: UserID, to conversationID: ConversationID, by owner: UserID) async throws {
        try await admission.admit(bot, to: conversationID, by: owner)
    }

    func dismiss(_ bot: UserID) async throws { try await admission.dismiss(bot) }
}

/// ConversationList's leaving takes the bots the leaver keeps, as Auth's store knows them.
struct OwnedBotsAdapter: OwnedBots {
    let store: any BotStore

    func bots(keptBy owner: UserID) async throws -> [UserID] { try await store.bots(of: owner).map(\.id) }
}

/// Profile's renames are seen by the renamed user and their contacts, as the list's directory
/// knows them (those the user blocked left out).
struct RenameAudienceAdapter: RenameAudience {
    let directory: Deferred<any ConversationDirectory>

    func audience(ofRenamed user: UserID) async throws -> [UserID] {
        [user] + (try await directory.get().contacts(of: user))
    }
}

/// The list's titles, and the names Chat finds mentions by, come from Profile's display names.
struct UserDirectoryAdapter: UserDirectory, MemberNames {
    let registry: any ProfileRegistry

    func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
        try await registry.displayNames(of: ids)
    }
}

/// Search's corpus on the memory backend, read through the caller's conversation list and
/// Chat: every message of the conversations asked for, each paged back from its newest until
/// `maxScanned` are read, given in the store's order as the port says.
struct ChatCorpusAdapter: SearchCorpus {
    /// Most messages one search reads: past them, older messages are not searched.
    static let maxScanned = 20_000

    let conversations: any ConversationListService
    let chat: any ChatService

    func conversations() async throws -> [ConversationID] { try await conversations.conversations().map(\.id) }

    func messages(in ids: [ConversationID]) async throws -> [SearchCorpusMessage] {
        var found: [SearchCorpusMessage] = []
        var scanned = 0
        for id in ids {
            var page = try await chat.latestMessages(in: id, limit: 500)
            while true {
                scanned += page.messages.count
                found += page.messages.filter { !$0.deleted }.map { message in
                    SearchCorpusMessage(
                        id: message.id, conversationID: message.conversationID, senderID: message.senderID,
                        sentAt: message.sentAt, text: message.text, key: message.cursor?.position ?? 0, mentions: message.mentions,
                        fileNames: message.attachments.map(\.name))
                }
                guard page.hasOlder, scanned < Self.maxScanned, let oldest = page.messages.first else { break }
                page = try await chat.messages(in: id, before: oldest.id, limit: 500)
            }
            if scanned >= Self.maxScanned { break }
        }
        return found.sorted { $0.key < $1.key }
    }
}

extension SearchSchema.Source {
    /// What Search's index reads, in SQLite and PostgreSQL alike: Chat's messages, their
    /// changes and mentions, and the list's members who may read (not those only invited).
    static let chatAndList = SearchSchema.Source(
        messages: "messages", key: "seq", id: "id", conversation: "conversation_id", sender: "sender_id", sentAt: "sent_at", text: "text",
        deleted: "deleted", changes: "message_changes", changeKey: "seq", changeConversation: "conversation_id", changeMessage: "message_id",
        members: "conversation_members", memberConversation: "conversation_id", memberUser: "user_id", memberReads: "c.state = 'member'",
        mentions: "message_mentions", mentionUser: "user_id", mentionKey: "seq", attachments: "attachments")
}

/// Auth's `AccountErasure` from the other features: the account's messages deleted for everyone
/// (Chat's erasure of the store), then its profile made "Deleted user" (Profile's registry).
struct AccountErasureAdapter: AccountErasure {
    let messages: Deferred<@Sendable (ErasedMessages) async throws -> Int>
    let profiles: any ProfileRegistry

    func erase(_ user: UserID) async throws {
        _ = try await messages.get()(.sentBy(user))
        try await profiles.eraseProfile(of: user)
    }
}

/// Auth's `ReportedMessages` from Chat: a message as its reader reads it (a member), and its
/// deletion for everyone (Chat's erasure).
struct ReportedMessagesAdapter: ReportedMessages {
    let membership: any ConversationMembership
    let read: @Sendable (MessageID, ConversationID) async throws -> Message?
    let erase: @Sendable (MessageID, ConversationID) async throws -> Void

    func message(_ id: MessageID, in conversationID: ConversationID, readBy reader: UserID) async throws -> (
        sender: UserID, text: String, deleted: Bool
    ) {
        _ = try await membership.requireMember(reader, of: conversationID)
        guard let message = try await read(id, conversationID) else { throw ChatRules.noMessage(id, in: conversationID) }
        return (message.senderID, message.text, message.deleted)
    }

    func deleteForEveryone(_ id: MessageID, in conversationID: ConversationID) async throws { try await erase(id, conversationID) }
}

/// Auth's `SuspensionShown` from Profile: the suspended account's name marked where others see it.
struct SuspensionShownAdapter: SuspensionShown {
    let profiles: any ProfileRegistry

    func setSuspended(_ user: UserID, _ suspended: Bool) async throws { try await profiles.setSuspended(user, suspended) }
}
