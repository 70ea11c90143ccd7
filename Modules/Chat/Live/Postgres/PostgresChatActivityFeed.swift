import Chat
import Kernel
import PostgresNIO
import PostgresStore

/// Conversations' newest message and unread counts (of messages, and of mentions) from a PostgreSQL database, for the list.
public struct PostgresChatActivityFeed: ChatActivityFeed {
    private let database: PGDatabase

    /// Creates the feed over an open database.
    public init(database: PGDatabase) { self.database = database }

    public func activity(of conversationIDs: [ConversationID], for reader: UserID) async throws -> [ConversationID: ChatActivity] {
        guard !conversationIDs.isEmpty else { return [:] }
        var activity: [ConversationID: ChatActivity] = [:]
        activity.reserveCapacity(conversationIDs.count)
        for row in try await database.query(
            """
            SELECT \(unescaped: MessageRows.columns), a.message_count - coalesce(r.read_count, 0),
                (SELECT count(*) FROM message_mentions x JOIN messages n ON n.seq = x.seq
                 WHERE x.user_id = \(reader.rawValue) AND x.conversation_id = a.conversation_id AND x.position > coalesce(r.read_count, 0)
                     AND NOT n.deleted)
            FROM unnest(\(conversationIDs.map(\.rawValue))::text[]) ids(id)
            JOIN chat_activity a ON a.conversation_id = ids.id
            JOIN messages m ON m.seq = a.last_seq
            \(unescaped: MessageRows.replyJoin)
            LEFT JOIN chat_reads r ON r.conversation_id = a.conversation_id AND r.user_id = \(reader.rawValue)
            """)
        {
            let message = try PostgresChatSchema.message(row, epoch: nil)
            let cells = row.makeRandomAccess()
            let (unread, mentions) = (try cells[MessageRows.count].decode(Int64.self), try cells[MessageRows.count + 1].decode(Int64.self))
            activity[message.conversationID] = ChatActivity(lastMessage: message, unreadCount: max(0, Int(unread)), unreadMentions: Int(mentions))
        }
        return activity
    }

    public func activityChanges() async throws -> AsyncStream<Void> { database.changes() }
}
