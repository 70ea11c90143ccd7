import Foundation
import Kernel
import PostgresNIO
import PostgresStore
import Search

/// Search in PostgreSQL through its index (`PostgresSearchIndex`), which holds each message's
/// conversation beside its words: a search asks for the caller's conversations alone
/// (`SearchRules.scope`; none: nothing is read), so it costs what they hold, never the whole
/// store's matches. Two plans, chosen here rather than by PostgreSQL's statistics (which a new
/// database has not gathered): the store's newest `recentEntries` entries are checked one by
/// one, which finds a common word of a busy conversation at once; when they hold too few
/// matches, the GIN index gives every match of the caller's conversations, newest first. Each
/// candidate is then checked against the message as it is now (its phrases in order, an edit or
/// a deletion the index has not caught up with). At most `SearchRules.maxCandidates` are read a
/// search.
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
        let tsquery = Self.tsquery(query, in: conversations)
        return try await SearchRules.verified(query, limit: limit, below: before ?? .max, by: me, budget: budget) { below, count in
            let recent = try await candidates(Self.recent(s, tsquery: tsquery, below: below, count: count))
            return recent.count == count ? recent : try await candidates(Self.indexed(s, tsquery: tsquery, below: below, count: count))
        }
    }

    /// Entries of the index, newest first, that a search checks one by one before it asks the GIN
    /// index: a common word of a busy conversation is found among them at once, where the GIN
    /// index would give every one of its matches to be sorted (2.7 against 32 ms at 10⁵).
    static let recentEntries: Int64 = 1_000

    /// The newest `count` matches of `tsquery` among the index's newest `recentEntries` below
    /// `below`: those, read backwards along the index's key, whatever PostgreSQL knows of the
    /// table. Fewer than `count`: older matches may be left (`indexed`).
    static func recent(_ s: SearchSchema.Source, tsquery: String, below: Int64, count: Int) -> PostgresQuery {
        """
        SELECT m.\(unescaped: s.key), m.\(unescaped: s.id), m.\(unescaped: s.conversation), m.\(unescaped: s.sender),
               m.\(unescaped: s.sentAt), m.\(unescaped: s.text), m.\(unescaped: s.deleted)
        FROM (SELECT seq, words FROM search_words WHERE seq < \(below) ORDER BY seq DESC LIMIT \(recentEntries)) w
        JOIN \(unescaped: s.messages) m ON m.\(unescaped: s.key) = w.seq
        WHERE w.words @@ \(tsquery)::tsquery
        ORDER BY w.seq DESC LIMIT \(Int64(count))
        """
    }

    /// The newest `count` matches of `tsquery` below `below`, of all the index holds: every match
    /// (of the caller's conversations alone, as `tsquery` asks) from the GIN index, then cut and
    /// sorted. The matches are gathered first (`MATERIALIZED`), with no condition on their key,
    /// so that no plan, whatever PostgreSQL's statistics say, walks the store's order through
    /// other people's matches instead.
    static func indexed(_ s: SearchSchema.Source, tsquery: String, below: Int64, count: Int) -> PostgresQuery {
        """
        WITH found AS MATERIALIZED (SELECT seq FROM search_words WHERE words @@ \(tsquery)::tsquery)
        SELECT m.\(unescaped: s.key), m.\(unescaped: s.id), m.\(unescaped: s.conversation), m.\(unescaped: s.sender),
               m.\(unescaped: s.sentAt), m.\(unescaped: s.text), m.\(unescaped: s.deleted)
        FROM (SELECT seq FROM found WHERE seq < \(below) ORDER BY seq DESC LIMIT \(Int64(count))) w
        JOIN \(unescaped: s.messages) m ON m.\(unescaped: s.key) = w.seq
        ORDER BY w.seq DESC
        """
    }

    /// The candidates `statement` reads (`recent` or `indexed`).
    private func candidates(_ statement: PostgresQuery) async throws -> [SearchRules.Candidate] {
        try await database.query(statement).map { row in
            let (seq, id, conversation, sender, sentAt, text, deleted) = try row.decode((Int64, String, String, String, Int64, String, Bool).self)
            return SearchRules.Candidate(
                key: seq,
                message: SearchCorpusMessage(
                    key: seq, id: id, conversationID: conversation, senderID: sender, sentAtMilliseconds: sentAt, text: text),
                deleted: deleted)
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

    /// `query` as a `tsquery` of its words as the index holds them (cast, so no parser decides),
    /// in `conversations` alone: every word, each word of a phrase, and each prefix with `:*`, all
    /// required, each `quoted`, and one of the conversations' `SearchQuery.lexeme(of:)`.
    static func tsquery(_ query: SearchQuery, in conversations: [ConversationID]) -> String {
        let words = query.terms.flatMap { term -> [String] in
            switch term {
            case .word(let word): [quoted(word)]
            case .prefix(let prefix): [quoted(prefix) + ":*"]
            case .phrase(let words): words.map(quoted)
            }
        }
        return (words + ["(" + conversations.map { "'\(SearchQuery.lexeme(of: $0))'" }.joined(separator: " | ") + ")"]).joined(separator: " & ")
    }

    /// `word` as a tsquery's lexeme, as the index holds it (`SearchQuery.lexeme`): quoted, a `'`
    /// doubled and a `\` escaped (though no word holds either), so no query can change the
    /// tsquery's syntax.
    static func quoted(_ word: String) -> String {
        "'" + SearchQuery.lexeme(word).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }
}
