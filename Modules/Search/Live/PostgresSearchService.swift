import Foundation
import Kernel
import PostgresNIO
import PostgresStore
import Search

/// Search in PostgreSQL through its index (`PostgresSearchIndex`): candidates holding every word
/// (a prefix as a prefix) newest first from the GIN index, joined to the caller's memberships
/// (one asked for is checked first, `SearchRules.scope`; none: nothing is read),
/// each then checked against the message as it is now (its phrases in order, an edit or a
/// deletion the index has not caught up with). At most `SearchRules.maxCandidates` are read a search.
public struct PostgresSearchService: SearchService {
    private let database: PGDatabase
    private let index: PostgresSearchIndex
    private let caller: Caller
    private let budget: UsageBudget

    /// Creates the service for `caller` over `database` and the instance's `index` of it; each
    /// search spends a look-up from `budget`.
    public init(database: PGDatabase, index: PostgresSearchIndex, caller: Caller, budget: UsageBudget = .unlimited) {
        self.database = database
        self.index = index
        self.caller = caller
        self.budget = budget
    }

    public func search(_ query: String, in conversationID: ConversationID?, limit: Int, before: Int64?) async throws -> SearchPage {
        let (query, me, limit) = try await SearchRules.start(query, limit: limit, by: caller, budget: budget)
        let s = index.source
        let readable = try await database.query(
            """
            SELECT c.\(unescaped: s.memberConversation) FROM \(unescaped: s.members) c
            WHERE c.\(unescaped: s.memberUser) = \(me.rawValue) AND \(unescaped: s.memberReads)
                AND (\(conversationID?.rawValue)::text IS NULL OR c.\(unescaped: s.memberConversation) = \(conversationID?.rawValue))
            """
        ).map { try ConversationID($0.decode(String.self)) }
        let conversations = try SearchRules.scope(readable, asked: conversationID, by: me, budget: budget)
        guard !conversations.isEmpty else { return SearchPage(hits: [], hasMore: false) }
        try await index.bringUpToDate()
        // The conversations are not asked of the index here, as they are on SQLite: with the
        // terms' statistics not gathered yet (a fresh index), PostgreSQL takes a term every
        // message holds for a rare one and reads every match (a common word: 2.7 → 32 ms at 10⁵).
        let tsquery = Self.tsquery(query)
        return try await SearchRules.verified(query, limit: limit, below: before ?? .max, by: me, budget: budget) { below, count in
            try await database.query(
                """
                SELECT m.\(unescaped: s.key), m.\(unescaped: s.id), m.\(unescaped: s.conversation), m.\(unescaped: s.sender),
                       m.\(unescaped: s.sentAt), m.\(unescaped: s.text), m.\(unescaped: s.deleted)
                FROM search_words w JOIN \(unescaped: s.messages) m ON m.\(unescaped: s.key) = w.seq
                JOIN \(unescaped: s.members) c ON c.\(unescaped: s.memberConversation) = m.\(unescaped: s.conversation)
                    AND c.\(unescaped: s.memberUser) = \(me.rawValue) AND \(unescaped: s.memberReads)
                WHERE w.words @@ \(tsquery)::tsquery AND w.seq < \(below)
                    AND (\(conversationID?.rawValue)::text IS NULL OR m.\(unescaped: s.conversation) = \(conversationID?.rawValue))
                ORDER BY w.seq DESC LIMIT \(Int64(count))
                """
            ).map { row in
                let (seq, id, conversation, sender, sentAt, text, deleted) = try row.decode((Int64, String, String, String, Int64, String, Bool).self)
                return SearchRules.Candidate(
                    key: seq,
                    message: SearchCorpusMessage(
                        key: seq, id: id, conversationID: conversation, senderID: sender,
                        sentAtMilliseconds: sentAt, text: text), deleted: deleted)
            }
        }
    }

    public func mentions(since: Int64?, limit: Int) async throws -> MentionPage {
        let (me, limit) = try await SearchRules.start(limit: limit, by: caller, budget: budget)
        let s = index.source
        let reading = MentionPage.reading(since: since, limit: limit)
        let found = try await database.query(
            """
            SELECT m.\(unescaped: s.key), m.\(unescaped: s.id), m.\(unescaped: s.conversation), m.\(unescaped: s.sender),
                   m.\(unescaped: s.sentAt), m.\(unescaped: s.text)
            FROM \(unescaped: s.mentions) x JOIN \(unescaped: s.messages) m ON m.\(unescaped: s.key) = x.\(unescaped: s.mentionKey)
            JOIN \(unescaped: s.members) c ON c.\(unescaped: s.memberConversation) = m.\(unescaped: s.conversation)
                AND c.\(unescaped: s.memberUser) = x.\(unescaped: s.mentionUser) AND \(unescaped: s.memberReads)
            WHERE x.\(unescaped: s.mentionUser) = \(me.rawValue) AND x.\(unescaped: s.mentionKey) > \(since ?? -1) AND NOT m.\(unescaped: s.deleted)
            ORDER BY x.\(unescaped: s.mentionKey) \(unescaped: reading.newestFirst ? "DESC" : "ASC") LIMIT \(Int64(reading.count))
            """
        ).map { row in
            let (seq, id, conversation, sender, sentAt, text) = try row.decode((Int64, String, String, String, Int64, String).self)
            return Mention(
                SearchCorpusMessage(key: seq, id: id, conversationID: conversation, senderID: sender, sentAtMilliseconds: sentAt, text: text))
        }
        return MentionPage(found, since: since, limit: limit)
    }

    /// `query` as a `tsquery` of its words as the index holds them (cast, so no parser decides):
    /// every word, each word of a phrase, and each prefix with `:*`, all required, each `quoted`.
    static func tsquery(_ query: SearchQuery) -> String {
        query.terms.flatMap { term -> [String] in
            switch term {
            case .word(let word): [quoted(word)]
            case .prefix(let prefix): [quoted(prefix) + ":*"]
            case .phrase(let words): words.map(quoted)
            }
        }.joined(separator: " & ")
    }

    /// `word` as a tsquery's lexeme, as the index holds it (`SearchQuery.lexeme`): quoted, a `'`
    /// doubled and a `\` escaped (though no word holds either), so no query can change the
    /// tsquery's syntax.
    static func quoted(_ word: String) -> String {
        "'" + SearchQuery.lexeme(word).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }
}
