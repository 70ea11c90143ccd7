import Kernel
import PostgresNIO

/// The hot statements of Chat's PostgreSQL side that run as they are sent, each kept once here:
/// the store runs these, and `PostgresQueryPlanTests` (Tests/ContractTests) asks PostgreSQL how
/// it plans them with their parameters (`EXPLAIN`, on a new database and a full one). The send
/// path's look-ups are inside `messageai_send` (`PostgresChatSchema`).
enum PostgresChatStatements {
    /// A page of a conversation's history: its newest `limit` messages before `position`, with
    /// their positions last.
    static func page(_ conversationID: ConversationID, below position: Int64, limit: Int) -> PostgresQuery {
        """
        SELECT \(unescaped: MessageRows.columns), m.position FROM messages m \(unescaped: MessageRows.replyJoin)
        WHERE m.conversation_id = \(conversationID.rawValue) AND m.position < \(position) ORDER BY m.position DESC LIMIT \(max(limit, 0))
        """
    }

    /// The position of a message, where an older page starts.
    static func position(of messageID: MessageID, in conversationID: ConversationID) -> PostgresQuery {
        "SELECT position FROM messages WHERE id = \(messageID.rawValue) AND conversation_id = \(conversationID.rawValue)"
    }

    /// The messages a read of change rows changed (`MessageChangeRows.keys`), each once. Each
    /// key is looked up by itself (`LATERAL … LIMIT 1`, which the planner cannot flatten):
    /// joined, a new database's planner hashes the keys and scans every message.
    static func changedMessages(_ keys: [MessageChangeRows.Key]) -> PostgresQuery {
        """
        SELECT \(unescaped: MessageRows.columns)
        FROM unnest(\(keys.map(\.conversationID))::text[], \(keys.map(\.messageID))::text[]) AS k(conversation_id, id)
        CROSS JOIN LATERAL (SELECT * FROM messages WHERE conversation_id = k.conversation_id AND id = k.id LIMIT 1) m
        \(unescaped: MessageRows.replyJoin)
        """
    }
}
