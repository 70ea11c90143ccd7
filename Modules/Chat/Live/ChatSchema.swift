import SQLStore

/// Chat's tables.
///
/// - `messages`: `sent_at` in whole milliseconds since 1970; `seq` (the rowid) orders all messages and is the cursor of live readers;
///   `position` numbers a conversation's messages from 1, so a page is an index range whatever
///   the conversation's size.
/// - `chat_activity`: per conversation, its message count and newest message.
/// - `chat_reads`: per reader and conversation, how many messages they have read. Sending marks
///   the conversation read for the sender, so unread = count − read.
public enum ChatSchema {
    /// Chat's migrations, oldest first.
    public static let migrations = [
        SchemaMigration(feature: "chat", version: 1, sql: """
            CREATE TABLE messages (
                seq INTEGER PRIMARY KEY,
                id TEXT NOT NULL UNIQUE,
                conversation_id TEXT NOT NULL,
                position INTEGER NOT NULL,
                sender_id TEXT NOT NULL,
                text TEXT NOT NULL,
                sent_at INTEGER NOT NULL
            );
            CREATE UNIQUE INDEX messages_by_position ON messages(conversation_id, position);
            CREATE TABLE chat_activity (
                conversation_id TEXT PRIMARY KEY,
                message_count INTEGER NOT NULL,
                last_seq INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE chat_reads (
                user_id TEXT NOT NULL,
                conversation_id TEXT NOT NULL,
                read_count INTEGER NOT NULL,
                PRIMARY KEY (user_id, conversation_id)
            ) WITHOUT ROWID;
            """),
    ]
}
