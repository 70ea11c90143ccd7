import Foundation
import GRDB
import Kernel
import SQLStore
import Search

/// Search in a SQLite file through its FTS5 index (`SearchSchema`, kept by `SQLSearchIndex`):
/// the newest matches in the caller's conversations first (the index holds each message's
/// conversation, `SearchRules.scope`), read in the index's order, so a search costs the matches
/// it reads of what the caller may read, not the store's size; each checked against the message
/// as it is now (`SearchRules.verified`).
public struct SQLSearchService: SearchService {
    private let database: SQLDatabase
    private let index: SQLSearchIndex
    private let caller: Caller
    private let budget: UsageBudget

    /// Creates the service for `caller` over an open database and the process's `index` of it
    /// (which names the tables read); each search spends a look-up from `budget`.
    public init(database: SQLDatabase, index: SQLSearchIndex, caller: Caller, budget: UsageBudget = .unlimited) {
        self.database = database
        self.index = index
        self.caller = caller
        self.budget = budget
    }

    public func search(_ query: String, in conversationID: ConversationID?, limit: Int, before: Int64?) async throws -> SearchPage {
        let (query, me, limit) = try await SearchRules.start(query, limit: limit, by: caller, budget: budget)
        let s = index.source
        let readable: [ConversationID] = try await database.read { db in
            try String.fetchAll(db, sql: Self.readable(s), arguments: [me.rawValue, conversationID?.rawValue]).map { ConversationID($0) }
        }
        let conversations = try SearchRules.scope(readable, asked: conversationID, by: me, budget: budget)
        guard !conversations.isEmpty else { return SearchPage(hits: [], hasMore: false) }
        try await index.bringUpToDate()
        let match = Self.match(query, in: conversations)
        return try await SearchRules.verified(query, limit: limit, below: before ?? .max, by: me, budget: budget) { below, count in
            try await database.read { db in
                try Row.fetchAll(db, sql: Self.candidates(s), arguments: [me.rawValue, match, below, count]).map { row in
                    SearchRules.Candidate(
                        key: row[0],
                        message: SearchCorpusMessage(
                            key: row[0], id: row[1], conversationID: row[2], senderID: row[3],
                            sentAtMilliseconds: row[4], text: row[5]), deleted: row[6])
                }
            }
        }
    }

    public func mentions(since: Int64?, limit: Int) async throws -> MentionPage {
        let (me, limit) = try await SearchRules.start(limit: limit, by: caller, budget: budget)
        let s = index.source
        let reading = MentionPage.reading(since: since, limit: limit)
        let found = try await database.read { db in
            try Row.fetchAll(db, sql: Self.mentions(s, newestFirst: reading.newestFirst), arguments: [me.rawValue, since ?? -1, reading.count]).map {
                row in
                Mention(
                    SearchCorpusMessage(key: row[0], id: row[1], conversationID: row[2], senderID: row[3], sentAtMilliseconds: row[4], text: row[5]))
            }
        }
        return MentionPage(found, since: since, limit: limit)
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
