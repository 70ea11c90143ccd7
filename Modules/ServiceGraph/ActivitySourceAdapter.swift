import Chat
import ConversationList
import Kernel

/// The list's last message and unread counts come from Chat's activity feed.
struct ActivitySourceAdapter: ActivitySource {
    let feed: Deferred<any ChatActivityFeed>

    func activity(of conversationIDs: [ConversationID], for reader: UserID) async throws -> [ConversationID: ConversationActivity] {
        try await feed.get().activity(of: conversationIDs, for: reader).mapValues { activity in
            ConversationActivity(
                lastMessage: activity.lastMessage.map {
                    MessagePreview(id: $0.id, senderID: $0.senderID, text: $0.text, sentAt: $0.sentAt)
                },
                unreadCount: activity.unreadCount
            )
        }
    }

    func activityChanges() async throws -> AsyncStream<Void> {
        try await feed.get().activityChanges()
    }
}
