import Foundation
import Kernel
import PostgresNIO
import PostgresStore
import Search

/// Search in PostgreSQL through its index (`PostgresSearchIndex`): candidates holding every word
/// (a prefix as a prefix) newest first from the GIN index, joined to the caller's memberships,
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

    public func search(_ query: String, in conversationID: ConversationID?, limit: Int, before: MessageID?) async throws -> SearchPage {
        let (query, me, limit) = try await SearchRules.start(query, limit: limit, by: caller, budget: budget)
        if let conversationID {
            let member = try await database.query("""
                SELECT 1 FROM conversation_members WHERE conversation_id = \(conversationID.rawValue) AND user_id = \(me.rawValue) AND state = 'member'
                """)
            guard !member.isEmpty else { throw SearchRules.notMember(conversationID) }
        }
        var below = Int64.max
        if let before {
            guard let key = try await database.query("""
                SELECT max(m.seq) FROM messages m JOIN conversation_members c ON c.conversation_id = m.conversation_id AND c.user_id = \(me.rawValue)
                    AND c.state = 'member'
                WHERE m.id = \(before.rawValue)
                """).first?.decode(Int64?.self) else {
                throw SearchRules.notAResult(before)
            }
            below = key
        }
        try await index.bringUpToDate()
        return try await SearchRules.verified(query, limit: limit, below: below) { below, count in
            try await database.query("""
                SELECT m.seq, m.id, m.conversation_id, m.sender_id, m.sent_at, m.text, m.deleted
                FROM search_words s JOIN messages m ON m.seq = s.seq
                JOIN conversation_members c ON c.conversation_id = m.conversation_id AND c.user_id = \(me.rawValue) AND c.state = 'member'
                WHERE s.words @@ \(Self.tsquery(query))::tsquery AND s.seq < \(below)
                    AND (\(conversationID?.rawValue)::text IS NULL OR m.conversation_id = \(conversationID?.rawValue))
                ORDER BY s.seq DESC LIMIT \(Int64(count))
                """).map { row in
                let (seq, id, conversation, sender, sentAt, text, deleted) = try row.decode((Int64, String, String, String, Int64, String, Bool).self)
                return SearchRules.Candidate(key: seq, message: SearchCorpusMessage(
                    id: MessageID(id), conversationID: ConversationID(conversation), senderID: UserID(sender),
                    sentAt: Date(timeIntervalSince1970: Double(sentAt) / 1_000), text: text), deleted: deleted)
            }
        }
    }

    /// `query` as a `tsquery` of its words as they are (cast, so no parser decides): every word,
    /// each word of a phrase, and each prefix with `:*`, all required.
    static func tsquery(_ query: SearchQuery) -> String {
        query.terms.flatMap { term -> [String] in
            switch term {
            case .word(let word): ["'\(word)'"]
            case .prefix(let prefix): ["'\(prefix)':*"]
            case .phrase(let words): words.map { "'\($0)'" }
            }
        }.joined(separator: " & ")
    }
}
