/// The hot statements of Search's SQLite side, each kept once here: the service runs these, and
/// `QueryPlanTests` (Tests/ContractTests) asks SQLite how it plans them (`EXPLAIN QUERY PLAN`, on
/// an empty file and a full one): the index or the mentions' key leads, `messages` is read by key.
extension SQLSearchStore {
    /// The conversations a person reads (arguments: the person, and one conversation, or NULL for all).
    static func readable(_ s: SearchSchema.Source) -> String {
        """
        SELECT c.\(s.memberConversation) FROM \(s.members) c
        WHERE c.\(s.memberUser) = ?1 AND \(s.memberReads) AND (?2 IS NULL OR c.\(s.memberConversation) = ?2)
        """
    }

    /// A page of candidates of a query, newest first (arguments: the FTS5 expression, which names
    /// the conversations searched, the key below which to look, how many).
    static func candidates(_ s: SearchSchema.Source) -> String {
        """
        SELECT m.\(s.key), m.\(s.id), m.\(s.conversation), m.\(s.sender), m.\(s.sentAt), m.\(s.text), m.\(s.deleted), m.\(s.attachments)
        FROM search_index i JOIN \(s.messages) m ON m.\(s.key) = i.rowid
        WHERE search_index MATCH ? AND i.rowid < ?
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
