/// The hot statements of Chat's SQLite side, each kept once here: the store runs these, and
/// `QueryPlanTests` (Tests/ContractTests) asks SQLite how it plans them (`EXPLAIN QUERY PLAN`,
/// on an empty file and a full one): each must use its index, never walk `messages`.
enum ChatStatements {
    /// The writer's look-up of the ids of a batch already stored in a conversation (arguments:
    /// the ids as a JSON array, the conversation). `CROSS JOIN` keeps the ids the outer loop:
    /// left to itself, SQLite's planner walked every message of the conversation for each send.
    static let storedMessages = """
        SELECT \(MessageRows.columns) FROM json_each(?) ids CROSS JOIN messages m ON m.conversation_id = ? AND m.id = ids.value
        \(MessageRows.replyJoin)
        """

    /// The messages a read of change rows changed, each once (arguments: `[conversation, id]`
    /// pairs as a JSON array). `CROSS JOIN` keeps the pairs the outer loop, as for
    /// `storedMessages`.
    static let changedMessages = """
        SELECT \(MessageRows.columns) FROM json_each(?) k
        CROSS JOIN messages m ON m.conversation_id = json_extract(k.value, '$[0]') AND m.id = json_extract(k.value, '$[1]')
        \(MessageRows.replyJoin)
        """

    /// A page of a conversation's history: its newest messages before a position (arguments:
    /// the conversation, the position, how many), with their positions last.
    static let page = """
        SELECT \(MessageRows.columns), m.position FROM messages m \(MessageRows.replyJoin)
        WHERE m.conversation_id = ? AND m.position < ? ORDER BY m.position DESC LIMIT ?
        """

    /// A message by its key (arguments: the conversation, the id).
    static let message = "SELECT \(MessageRows.columns) FROM messages m \(MessageRows.replyJoin) WHERE m.conversation_id = ? AND m.id = ?"

    /// The position of a message, where an older page starts (arguments: the message, the conversation).
    static let position = "SELECT position FROM messages WHERE id = ? AND conversation_id = ?"

    /// The list's activity of conversations for a reader (arguments: the conversations as a JSON
    /// array, the reader): each one's newest message, unread count and unread mentions.
    static let activity = """
        SELECT \(MessageRows.columns), a.message_count - coalesce(r.read_count, 0),
            (SELECT count(*) FROM message_mentions x JOIN messages n ON n.seq = x.seq
             WHERE x.user_id = ?2 AND x.conversation_id = a.conversation_id AND x.position > coalesce(r.read_count, 0) AND NOT n.deleted)
        FROM json_each(?1) ids
        CROSS JOIN chat_activity a ON a.conversation_id = ids.value
        JOIN messages m ON m.seq = a.last_seq
        \(MessageRows.replyJoin)
        LEFT JOIN chat_reads r ON r.conversation_id = a.conversation_id AND r.user_id = ?2
        """
}
