import Foundation
import Kernel
import PostgresNIO
import PostgresStore
import Search

/// Search's index in PostgreSQL as `StoredSearchService` reads it (`PostgresSearchIndex`), which
/// holds each message's conversation beside its words, so a search asks for the caller's
/// conversations alone and costs what they hold, never the whole store's matches. Two plans,
/// chosen here rather than by PostgreSQL's statistics (which a new database has not gathered):
/// the store's newest `recentEntries` entries are checked one by one, which finds a common word
/// of a busy conversation at once; when they hold too few matches, the GIN index gives every
/// match of the caller's conversations, newest first.
public struct PostgresSearchStore: SearchStore {
    private let database: PGDatabase
    private let index: PostgresSearchIndex

    /// The instance's `index` of `database`, which names the tables read.
    public init(database: PGDatabase, index: PostgresSearchIndex) {
        self.database = database
        self.index = index
    }

    public func conversations(readBy reader: UserID, among conversationID: ConversationID?) async throws -> [ConversationID] {
        let s = index.source
        return try await database.query(
            """
            SELECT c.\(unescaped: s.memberConversation) FROM \(unescaped: s.members) c
            WHERE c.\(unescaped: s.memberUser) = \(reader.rawValue) AND \(unescaped: s.memberReads)
                AND (\(conversationID?.rawValue)::text IS NULL OR c.\(unescaped: s.memberConversation) = \(conversationID?.rawValue))
            """
        ).map { try ConversationID($0.decode(String.self)) }
    }

    public func bringUpToDate() async throws { try await index.bringUpToDate() }

    public func candidates(_ query: SearchQuery, in conversations: [ConversationID], below: Int64, count: Int) async throws
        -> [SearchRules.Candidate]
    {
        let (s, tsquery) = (index.source, Self.tsquery(query, in: conversations))
        let recent = try await candidates(Self.recent(s, tsquery: tsquery, below: below, count: count))
        return recent.count == count ? recent : try await candidates(Self.indexed(s, tsquery: tsquery, below: below, count: count))
    }

    public func mentions(of reader: UserID, after since: Int64, count: Int, newestFirst: Bool) async throws -> [Mention] {
        let s = index.source
        return try await database.query(
            """
            SELECT m.\(unescaped: s.key), m.\(unescaped: s.id), m.\(unescaped: s.conversation), m.\(unescaped: s.sender),
                   m.\(unescaped: s.sentAt), m.\(unescaped: s.text)
            FROM \(unescaped: s.mentions) x JOIN \(unescaped: s.messages) m ON m.\(unescaped: s.key) = x.\(unescaped: s.mentionKey)
            JOIN \(unescaped: s.members) c ON c.\(unescaped: s.memberConversation) = m.\(unescaped: s.conversation)
                AND c.\(unescaped: s.memberUser) = x.\(unescaped: s.mentionUser) AND \(unescaped: s.memberReads)
            WHERE x.\(unescaped: s.mentionUser) = \(reader.rawValue) AND x.\(unescaped: s.mentionKey) > \(since) AND NOT m.\(unescaped: s.deleted)
            ORDER BY x.\(unescaped: s.mentionKey) \(unescaped: newestFirst ? "DESC" : "ASC") LIMIT \(Int64(count))
            """
        ).map { row in
            let (seq, id, conversation, sender, sentAt, text) = try row.decode((Int64, String, String, String, Int64, String).self)
            return Mention(
                SearchCorpusMessage(key: seq, id: id, conversationID: conversation, senderID: sender, sentAtMilliseconds: sentAt, text: text))
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
               m.\(unescaped: s.sentAt), m.\(unescaped: s.text), m.\(unescaped: s.deleted), m.\(unescaped: s.attachments)
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
               m.\(unescaped: s.sentAt), m.\(unescaped: s.text), m.\(unescaped: s.deleted), m.\(unescaped: s.attachments)
        FROM (SELECT seq FROM found WHERE seq < \(below) ORDER BY seq DESC LIMIT \(Int64(count))) w
        JOIN \(unescaped: s.messages) m ON m.\(unescaped: s.key) = w.seq
        ORDER BY w.seq DESC
        """
    }

    /// The candidates `statement` reads (`recent` or `indexed`).
    private func candidates(_ statement: PostgresQuery) async throws -> [SearchRules.Candidate] {
        try await database.query(statement).map { row in
            let (seq, id, conversation, sender, sentAt, text, deleted, files) = try row.decode(
                (Int64, String, String, String, Int64, String, Bool, String?).self)
            return SearchRules.Candidate(
                key: seq,
                message: SearchCorpusMessage(
                    key: seq, id: id, conversationID: conversation, senderID: sender, sentAtMilliseconds: sentAt, text: text,
                    fileNames: SearchSchema.Source.fileNames(files)),
                deleted: deleted)
        }
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
