/// The hot statements of Search's SQLite side, each kept once here: the service runs these, and
/// `QueryPlanTests` (Tests/ContractTests) asks SQLite how it plans them (`EXPLAIN QUERY PLAN`, on
/// an empty file and a full one): the index or the mentions' key leads, `messages` is read by key.
extension SQLSearchService {
    /// A page of candidates of a query, newest first (arguments: the reader, the FTS5 expression,
    /// the key below which to look, the conversation or NULL for all, how many).
    static func candidates(_ s: SearchSchema.Source) -> String {
        """
        SELECT m.\(s.key), m.\(s.id), m.\(s.conversation), m.\(s.sender), m.\(s.sentAt), m.\(s.text), m.\(s.deleted)
        FROM search_index i JOIN \(s.messages) m ON m.\(s.key) = i.rowid
        JOIN \(s.members) c ON c.\(s.memberConversation) = m.\(s.conversation) AND c.\(s.memberUser) = ? AND \(s.memberReads)
        WHERE search_index MATCH ? AND i.rowid < ? AND (?4 IS NULL OR m.\(s.conversation) = ?4)
        ORDER BY i.rowid DESC LIMIT ?
        """
    }

    /// A page of a person's mentions after a key (arguments: the person, the key, how many),
    /// newest or oldest first.
    static func mentions(_ s: SearchSchema.Source, newestFirst: Bool) -> String {
        """
        SELECT m.\(s.key), m.\(s.id), m.\(s.conversation), m.\(s.sender), m.\(s.sentAt), m.\(s.text)
        FROM \(s.mentions) x JOIN \(s.messages) m ON m.\(s.key) = x.\(s.mentionKey)
        JOIN \(s.members) c ON c.\(s.memberConversation) = m.\(s.conversation) AND c.\(s.memberUser) = x.\(s.mentionUser) AND \(s.memberReads)
        WHERE x.\(s.mentionUser) = ?1 AND x.\(s.mentionKey) > ?2 AND NOT m.\(s.deleted)
        ORDER BY x.\(s.mentionKey) \(newestFirst ? "DESC" : "ASC") LIMIT ?3
        """
    }
}
