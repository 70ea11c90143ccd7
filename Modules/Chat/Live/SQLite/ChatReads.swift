import GRDB
import Kernel

/// Read markers in `chat_reads`: how many messages of a conversation a reader has read.
enum ChatReads {
    /// Moves `reader`'s marker forward to `count` (never back).
    static func set(_ count: Int, by reader: UserID, in conversationID: ConversationID, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO chat_reads (user_id, conversation_id, read_count) VALUES (?, ?, ?)
                ON CONFLICT (user_id, conversation_id) DO UPDATE SET read_count = max(read_count, excluded.read_count)
                """
        ).execute(arguments: [reader.rawValue, conversationID.rawValue, count])
    }
}
