import Foundation
import GRDB
import Kernel
import SQLStore
import Search

/// Search's index in a SQLite file as `StoredSearchService` reads it: its FTS5 index (`SearchSchema`,
/// kept by `SQLSearchIndex`) holds each message's conversation beside its words, so a search asks
/// it for the caller's conversations alone and reads their matches in the index's order, newest
/// first: it costs the matches it reads of what the caller may read, not the store's size.
public struct SQLSearchStore: SearchStore {
    private let database: SQLDatabase
    private let index: SQLSearchIndex

    /// The index of an open database, kept by the process's `index` of it (which names the tables read).
    public init(database: SQLDatabase, index: SQLSearchIndex) {
        self.database = database
        self.index = index
    }

    public func conversations(readBy reader: UserID, among conversationID: ConversationID?) async throws -> [ConversationID] {
        let s = index.source
        return try await database.read { db in
            try String.fetchAll(db, sql: Self.readable(s), arguments: [reader.rawValue, conversationID?.rawValue]).map { ConversationID($0) }
        }
    }

    public func bringUpToDate() async throws { try await index.bringUpToDate() }

    public func candidates(_ query: SearchQuery, in conversations: [ConversationID], below: Int64, count: Int) async throws
        -> [SearchRules.Candidate]
    {
        let (s, match) = (index.source, Self.match(query, in: conversations))
        return try await database.read { db in
            try Row.fetchAll(db, sql: Self.candidates(s), arguments: [match, below, count]).map { row in
                SearchRules.Candidate(
                    key: row[0],
                    message: SearchCorpusMessage(
                        key: row[0], id: row[1], conversationID: row[2], senderID: row[3], sentAtMilliseconds: row[4], text: row[5],
                        fileNames: SearchSchema.Source.fileNames(row[7])),
                    deleted: row[6])
            }
        }
    }

    public func mentions(of reader: UserID, after since: Int64, count: Int, newestFirst: Bool) async throws -> [Mention] {
        let s = index.source
        return try await database.read { db in
            try Row.fetchAll(db, sql: Self.mentions(s, newestFirst: newestFirst), arguments: [reader.rawValue, since, count]).map { row in
                Mention(
                    SearchCorpusMessage(key: row[0], id: row[1], conversationID: row[2], senderID: row[3], sentAtMilliseconds: row[4], text: row[5]))
            }
        }
    }

    /// `query` as an FTS5 expression over the words as the index holds them, in `conversations`
    /// alone (their `SearchQuery.lexeme(of:)`): each term a `quoted` string, a prefix with `*`,
    /// all of them required, and one of the conversations.
    static func match(_ query: SearchQuery, in conversations: [ConversationID]) -> String {
        let terms = query.terms.map { term in
            switch term {
            case .word(let word): quoted([word])
            case .prefix(let prefix): quoted([prefix]) + "*"
            case .phrase(let words): quoted(words)
            }
        }
        return (terms + ["(" + conversations.map { "\"\(SearchQuery.lexeme(of: $0))\"" }.joined(separator: " OR ") + ")"]).joined(separator: " AND ")
    }

    /// `words` as one FTS5 string (a phrase of them), each as the index holds it
    /// (`SearchQuery.lexeme`), a `"` doubled (though no word holds one): no query can change the
    /// expression's syntax.
    static func quoted(_ words: [String]) -> String {
        "\"" + words.map(SearchQuery.lexeme).joined(separator: " ").replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
