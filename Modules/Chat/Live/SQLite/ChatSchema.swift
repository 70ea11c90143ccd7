import Kernel
import SQLStore

/// Chat's tables.
///
/// - `messages`: `id` (the sender's) unique within its conversation; `sent_at` in whole milliseconds since 1970; `seq` (the rowid, from the store's
///   sequence, `SQLChangeLog`) orders all messages among the store's other changes and is the cursor of live readers;
///   `position` numbers a conversation's messages from 1, so a page is an index range whatever
///   the conversation's size.
/// - `chat_activity`: per conversation, its message count and newest message.
/// - `chat_reads`: per reader and conversation, how many messages they have read. Sending marks
///   the conversation read for the sender, so unread = count − read.
/// - `chat_receipt_privacy`: who keeps their read receipts private (`ChatRules.receiptAudience`).
/// - `messages.attachments`: the files a message carries, as JSON (`MessageRows.attachmentsText`).
/// - `message_mentions`: per person mentioned, the message (`seq`) and its conversation and position.
/// - `message_changes`: each edit or deletion of a message, numbered by the store's sequence like
///   a message; the event carries the message as it is now (`version`, `edited_at`, `deleted`).
/// - `chat_epoch`: one random value made with the database: with `seq` it makes the cursors a
///   live reader resumes from (`EventCursor`), which a copy of another database cannot match.
public enum ChatSchema {
    /// Chat's migrations, oldest first.
    public static let migrations = [
        SchemaMigration(
            feature: "chat", version: 1,
            sql: """
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
        SchemaMigration(
            feature: "chat", version: 2,
            sql: """
                CREATE TABLE chat_epoch (epoch TEXT NOT NULL);
                INSERT INTO chat_epoch (epoch) VALUES (lower(hex(randomblob(5))));
                """),
        // Catch-up of one conversation after a cursor.
        SchemaMigration(feature: "chat", version: 3, sql: "CREATE INDEX messages_by_conversation_seq ON messages(conversation_id, seq);"),
        // Messages stored before the store had one sequence keep their numbers; the sequence goes on after them.
        SchemaMigration(
            feature: "chat", version: 4,
            sql: "UPDATE store_sequence SET value = max(value, (SELECT coalesce(max(seq), 0) FROM messages));"),
        // Changes stored before each had its audience get the one the rules of the time gave them:
        // a new conversation its members, a read marker its reader, a rename the user and
        // everyone sharing a conversation with them. (A new file has no changes, nor yet the
        // conversation tables, which come after Chat's steps.)
        SchemaMigration(feature: "chat", version: 5) { db in
            guard try db.tableExists("conversation_members") else { return }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO store_audiences (user_id, seq) SELECT m.user_id, s.seq FROM store_changes s
                        JOIN conversation_members m ON m.conversation_id = s.conversation_id WHERE s.kind = 'conversation.added';
                    INSERT OR IGNORE INTO store_audiences (user_id, seq) SELECT s.user_id, s.seq FROM store_changes s
                        WHERE s.kind IN ('chat.read', 'profile.renamed');
                    INSERT OR IGNORE INTO store_audiences (user_id, seq) SELECT o.user_id, s.seq FROM store_changes s
                        JOIN conversation_members c ON c.user_id = s.user_id JOIN conversation_members o ON o.conversation_id = c.conversation_id
                        WHERE s.kind = 'profile.renamed';
                    """)
        },
        // A message's id is unique within its conversation, not in the whole store: nobody can
        // claim an id another conversation's script will use, nor learn whether one is used.
        SchemaMigration(
            feature: "chat", version: 6,
            sql: """
                CREATE TABLE messages_scoped (
                    seq INTEGER PRIMARY KEY,
                    id TEXT NOT NULL,
                    conversation_id TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    sender_id TEXT NOT NULL,
                    text TEXT NOT NULL,
                    sent_at INTEGER NOT NULL,
                    UNIQUE (conversation_id, id)
                );
                INSERT INTO messages_scoped SELECT seq, id, conversation_id, position, sender_id, text, sent_at FROM messages;
                DROP TABLE messages;
                ALTER TABLE messages_scoped RENAME TO messages;
                CREATE UNIQUE INDEX messages_by_position ON messages(conversation_id, position);
                CREATE INDEX messages_by_conversation_seq ON messages(conversation_id, seq);
                """),
        // Messages their authors edit or delete: the current version in the row (a deleted one's
        // text is emptied), and each change an event of its own in `message_changes`.
        SchemaMigration(
            feature: "chat", version: 7,
            sql: """
                ALTER TABLE messages ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE messages ADD COLUMN edited_at INTEGER;
                ALTER TABLE messages ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE message_changes (
                    seq INTEGER PRIMARY KEY,
                    kind TEXT NOT NULL,
                    conversation_id TEXT NOT NULL,
                    message_id TEXT NOT NULL
                );
                CREATE INDEX message_changes_by_conversation_seq ON message_changes(conversation_id, seq);
                """),
        // Reactions, kept with their message as a JSON object of emoji to people (NULL for none).
        SchemaMigration(feature: "chat", version: 8, sql: "ALTER TABLE messages ADD COLUMN reactions TEXT;"),
        // Replies: the id of the message of the same conversation a message answers.
        SchemaMigration(feature: "chat", version: 9, sql: "ALTER TABLE messages ADD COLUMN reply_to TEXT;"),
        // The people who keep their read receipts private.
        SchemaMigration(feature: "chat", version: 10, sql: "CREATE TABLE chat_receipt_privacy (user_id TEXT PRIMARY KEY) WITHOUT ROWID;"),
        // Mentions: with their message as a JSON array of people (NULL for none), and a row per
        // person mentioned, to find a person's mentions and count the unread ones of a conversation.
        SchemaMigration(
            feature: "chat", version: 11,
            sql: """
                ALTER TABLE messages ADD COLUMN mentions TEXT;
                CREATE TABLE message_mentions (
                    user_id TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    conversation_id TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    PRIMARY KEY (user_id, seq)
                ) WITHOUT ROWID;
                CREATE INDEX message_mentions_by_conversation ON message_mentions(user_id, conversation_id, position);
                """),
        // Files: what a message carries of each (Files keeps the bytes), a JSON array (NULL for none).
        SchemaMigration(feature: "chat", version: 12, sql: "ALTER TABLE messages ADD COLUMN attachments TEXT;"),
    ]

    /// The database's epoch (see `chat_epoch`).
    /// - Throws: `AppError(.unavailable)` when it is missing (a damaged file).
    public static func epoch(of database: SQLDatabase) throws -> String {
        guard let epoch = try database.pool.read({ db in try String.fetchOne(db, sql: "SELECT epoch FROM chat_epoch") }) else {
            throw AppError(.unavailable, "the database \(database.path) has no chat epoch; it is damaged")
        }
        return epoch
    }
}
