import SQLStore

/// ConversationList's tables. `direct_key` ("<user>|<user>", sorted) makes a one-to-one
/// conversation unique per pair, even when two processes start it at once.
public enum ConversationListSchema {
    /// ConversationList's migrations, oldest first.
    public static let migrations = [
        SchemaMigration(
            feature: "conversationlist", version: 1,
            sql: """
                CREATE TABLE conversations (
                    id TEXT PRIMARY KEY,
                    title TEXT,
                    direct_key TEXT UNIQUE,
                    created_at REAL NOT NULL
                );
                CREATE TABLE conversation_members (
                    user_id TEXT NOT NULL,
                    conversation_id TEXT NOT NULL REFERENCES conversations(id),
                    PRIMARY KEY (user_id, conversation_id)
                ) WITHOUT ROWID;
                CREATE INDEX conversation_members_by_conversation ON conversation_members(conversation_id, user_id);
                """),
        // Members never change after creation: keep them on the conversation row too, so the
        // list is read without joining the members table twice.
        SchemaMigration(
            feature: "conversationlist", version: 2,
            sql: """
                ALTER TABLE conversations ADD COLUMN members TEXT NOT NULL DEFAULT '';
                UPDATE conversations SET members = (
                    SELECT group_concat(user_id) FROM conversation_members WHERE conversation_id = conversations.id
                );
                """),
        // The list reads every column of each of the reader's conversations: a covering index
        // answers it with one lookup per conversation instead of two (10,000 rows: ~8 → ~3 ms of SQL).
        SchemaMigration(
            feature: "conversationlist", version: 3,
            sql: """
                CREATE INDEX conversations_for_list ON conversations(id, created_at, title, members);
                """),
        // Consent: a row of `conversation_members` is a member, or invited (by whom, when);
        // `conversations.members` lists members only. `conversation_accepts`: who may put whom
        // in a conversation without asking (people of a one-to-one already accept each other);
        // `conversation_blocks`: who blocked whom.
        SchemaMigration(
            feature: "conversationlist", version: 4,
            sql: """
                ALTER TABLE conversation_members ADD COLUMN state TEXT NOT NULL DEFAULT 'member';
                ALTER TABLE conversation_members ADD COLUMN invited_by TEXT;
                ALTER TABLE conversation_members ADD COLUMN invited_at REAL;
                CREATE INDEX conversation_members_invited ON conversation_members(user_id, invited_by) WHERE state = 'invited';
                CREATE TABLE conversation_accepts (
                    user_id TEXT NOT NULL,
                    accepted_id TEXT NOT NULL,
                    PRIMARY KEY (user_id, accepted_id)
                ) WITHOUT ROWID;
                INSERT OR IGNORE INTO conversation_accepts (user_id, accepted_id)
                    SELECT a.user_id, b.user_id FROM conversations c
                    JOIN conversation_members a ON a.conversation_id = c.id JOIN conversation_members b ON b.conversation_id = c.id
                    WHERE c.direct_key IS NOT NULL AND a.user_id != b.user_id;
                CREATE TABLE conversation_blocks (
                    user_id TEXT NOT NULL,
                    blocked_id TEXT NOT NULL,
                    PRIMARY KEY (user_id, blocked_id)
                ) WITHOUT ROWID;
                DROP INDEX conversations_for_list;
                CREATE INDEX conversations_for_list ON conversations(id, created_at, title, members, direct_key);
                """),
    ]
}
