import Foundation
import GRDB
import Search
import SQLStore

/// Search's index in a SQLite file: an FTS5 table of each message's words, folded as
/// `SearchQuery` folds them (by the SQL function `search_words`, which each connection of the
/// process has), kept by triggers on the messages table in the same transaction as the message,
/// so a send, an edit and a deletion change the index at once. What it indexes, the composition
/// root names (`Source`): Search reads another feature's tables only through that description.
public enum SearchSchema {
    /// Where the messages, and who may read them, are.
    public struct Source: Sendable {
        /// The messages table, its integer key (the index's rowid, ordered as the store's order),
        /// and the columns of a message's id, conversation, sender, time (Unix milliseconds),
        /// text, and whether it was deleted.
        public let messages: String, key: String, id: String, conversation: String, sender: String, sentAt: String, text: String, deleted: String
        /// The members table, with its conversation and user columns, and the condition on its
        /// row `c` that makes a member who may read (not one only invited).
        public let members: String, memberConversation: String, memberUser: String, memberReads: String

        public init(messages: String, key: String, id: String, conversation: String, sender: String, sentAt: String, text: String, deleted: String,
                    members: String, memberConversation: String, memberUser: String, memberReads: String) {
            (self.messages, self.key, self.id, self.conversation, self.sender, self.sentAt, self.text, self.deleted) =
                (messages, key, id, conversation, sender, sentAt, text, deleted)
            (self.members, self.memberConversation, self.memberUser, self.memberReads) = (members, memberConversation, memberUser, memberReads)
        }
    }

    /// The SQL function the index's triggers call: a text's words, folded, space-separated.
    public static let wordsFunction = DatabaseFunction("search_words", argumentCount: 1, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) else { return "" }
        return SearchQuery.words(of: text).joined(separator: " ")
    }

    /// The index over `source`, filled with what is there when it is made.
    public static func migrations(over source: Source) -> [SchemaMigration] {
        let s = source
        return [
            SchemaMigration(feature: "search", version: 1, sql: """
                CREATE VIRTUAL TABLE search_index USING fts5(words, tokenize = 'unicode61 remove_diacritics 0', columnsize = 0);
                CREATE TRIGGER search_index_insert AFTER INSERT ON \(s.messages) WHEN NOT new.\(s.deleted) BEGIN
                    INSERT INTO search_index (rowid, words) VALUES (new.\(s.key), search_words(new.\(s.text)));
                END;
                CREATE TRIGGER search_index_update AFTER UPDATE OF \(s.text), \(s.deleted) ON \(s.messages) BEGIN
                    DELETE FROM search_index WHERE rowid = old.\(s.key);
                    INSERT INTO search_index (rowid, words) SELECT new.\(s.key), search_words(new.\(s.text)) WHERE NOT new.\(s.deleted);
                END;
                CREATE TRIGGER search_index_delete AFTER DELETE ON \(s.messages) BEGIN
                    DELETE FROM search_index WHERE rowid = old.\(s.key);
                END;
                INSERT INTO search_index (rowid, words) SELECT \(s.key), search_words(\(s.text)) FROM \(s.messages) WHERE NOT \(s.deleted);
                """),
        ]
    }
}
