import Chat
import GRDB
import Kernel
import SQLStore

/// Conversations' newest message and unread counts (of messages, and of mentions) from the SQLite database, for the list.
public struct SQLChatActivityFeed: ChatActivityFeed {
    private let database: SQLDatabase

    /// Creates the feed over an open database.
    public init(database: SQLDatabase) { self.database = database }

    public func activity(of conversationIDs: [ConversationID], for reader: UserID) async throws -> [ConversationID: ChatActivity] {
        guard !conversationIDs.isEmpty else { return [:] }
        let list = try JSONIDs.encode(conversationIDs)
        return try await database.read { db in
            var activity: [ConversationID: ChatActivity] = [:]
            activity.reserveCapacity(conversationIDs.count)
            let rows = try Row.fetchCursor(db, sql: ChatStatements.activity, arguments: [list, reader.rawValue])
            while let row = try rows.next() {
                let message = try MessageRows.message(row, epoch: nil)
                activity[message.conversationID] = ChatActivity(
                    lastMessage: message, unreadCount: max(0, try row.decode(Int.self, atIndex: MessageRows.count)),
                    unreadMentions: try row.decode(atIndex: MessageRows.count + 1))
            }
            return activity
        }
    }

    public func activityChanges() async throws -> AsyncStream<Void> { database.changes.subscribe() }
}
