import Foundation
import GRDB
import SQLStore
import Search

/// Search's index in a SQLite file: an FTS5 table of each message's words as `SearchQuery`
/// folds them (`SQLSearchIndex` keeps it), and the store position it is kept up to. What it
/// indexes, the composition root names (`Source`): Search reads another feature's tables only
/// through that description.
public enum SearchSchema {
    /// Where the messages, their changes, who may read them, and whom they mention, are.
    public struct Source: Sendable {
        /// The messages table, its integer key (the store's order), and the columns of a
        /// message's id, conversation, sender, time (Unix milliseconds), text, and whether it was deleted.
        public let messages: String, key: String, id: String, conversation: String, sender: String, sentAt: String, text: String, deleted: String
        /// The table of changes to messages (edits, deletions), with its key in the store's
        /// order and the conversation and id of the message changed.
        public let changes: String, changeKey: String, changeConversation: String, changeMessage: String
        /// The members table, with its conversation and user columns, and the condition on its
        /// row `c` that makes a member who may read (not one only invited).
        public let members: String, memberConversation: String, memberUser: String, memberReads: String
        /// The table of mentions: a row per person a message mentions, with the message's key.
        public let mentions: String, mentionUser: String, mentionKey: String
        /// The messages' column of the files they carry: a JSON array of objects whose `name` a
        /// search finds (NULL for none).
        public let attachments: String

        public init(
            messages: String, key: String, id: String, conversation: String, sender: String, sentAt: String, text: String, deleted: String,
            changes: String, changeKey: String, changeConversation: String, changeMessage: String,
            members: String, memberConversation: String, memberUser: String, memberReads: String,
            mentions: String, mentionUser: String, mentionKey: String, attachments: String
        ) {
            (self.messages, self.key, self.id, self.conversation, self.sender, self.sentAt, self.text, self.deleted) =
                (messages, key, id, conversation, sender, sentAt, text, deleted)
            (self.changes, self.changeKey, self.changeConversation, self.changeMessage) = (changes, changeKey, changeConversation, changeMessage)
            (self.members, self.memberConversation, self.memberUser, self.memberReads) = (members, memberConversation, memberUser, memberReads)
            (self.mentions, self.mentionUser, self.mentionKey) = (mentions, mentionUser, mentionKey)
            self.attachments = attachments
        }

        /// The names of the files of an `attachments` column's value; none for NULL or what does not read.
        public static func fileNames(_ column: String?) -> [String] {
            struct Named: Decodable { let name: String }
            guard let column, let files = try? JSONDecoder().decode([Named].self, from: Data(column.utf8)) else { return [] }
            return files.map(\.name)
        }
    }

    /// The index, empty, kept up to the start of the store (`SQLSearchIndex` fills it); then what
    /// keeps a changed message's words out of the file: a trigger that drops an edited or deleted
    /// message's row from the index in the change's own transaction, whichever program makes it,
    /// and counts the purges wanted (`purge_wanted`, when the message was indexed), which
    /// `SQLSearchIndex.purge()` then does (`purged`).
    public static func migrations(_ s: Source) -> [SchemaMigration] {
        [
            SchemaMigration(
                feature: "search", version: 1,
                sql: """
                    CREATE VIRTUAL TABLE search_index USING fts5(words, tokenize = 'unicode61 remove_diacritics 0', columnsize = 0);
                    CREATE TABLE search_progress (one INTEGER PRIMARY KEY CHECK (one = 1), seq INTEGER NOT NULL);
                    INSERT INTO search_progress VALUES (1, 0);
                    """),
            SchemaMigration(
                feature: "search", version: 2,
                sql: """
                    ALTER TABLE search_progress ADD COLUMN purge_wanted INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE search_progress ADD COLUMN purged INTEGER NOT NULL DEFAULT 0;
                    UPDATE search_progress SET purge_wanted = 1 WHERE seq > 0;
                    CREATE TRIGGER search_forgets_changed_text AFTER UPDATE OF \(s.text), \(s.deleted) ON \(s.messages)
                    WHEN new.\(s.text) IS NOT old.\(s.text) OR new.\(s.deleted) IS NOT old.\(s.deleted) BEGIN
                        DELETE FROM search_index WHERE rowid = old.\(s.key);
                        UPDATE search_progress SET purge_wanted = purge_wanted + 1 WHERE old.\(s.key) <= seq;
                    END;
                    """),
            // The index holds each message's conversation too, and `@` is a token's letter (for
            // `SearchQuery.lexeme(of:)`): it is made again, empty, and indexed again from the
            // start by the first search (dropping it zeroes its pages: `secure_delete`).
            SchemaMigration(
                feature: "search", version: 3,
                sql: """
                    DROP TABLE search_index;
                    CREATE VIRTUAL TABLE search_index USING fts5(words, tokenize = "unicode61 remove_diacritics 0 tokenchars '@'", columnsize = 0);
                    UPDATE search_progress SET seq = 0, purge_wanted = 0, purged = 0;
                    """),
        ]
    }
}
