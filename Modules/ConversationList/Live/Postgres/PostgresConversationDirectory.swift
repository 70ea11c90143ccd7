import ConversationList
import Kernel
import PostgresNIO
import PostgresStore

/// ConversationList's tables on PostgreSQL, as on SQLite (`ConversationListSchema`), and
/// membership look-ups in them, for other features.
public struct PostgresConversationDirectory: ConversationDirectory {
    /// ConversationList's migrations, oldest first.
    public static let migrations = [
        PGDatabase.Migration(
            feature: "conversationlist", version: 1,
            [
                """
                CREATE TABLE conversations (id text COLLATE "C" PRIMARY KEY, title text, direct_key text COLLATE "C" UNIQUE,
                                            created_at double precision NOT NULL, members text NOT NULL DEFAULT '')
                """,
                """
                CREATE TABLE conversation_members (user_id text COLLATE "C" NOT NULL, conversation_id text COLLATE "C" NOT NULL REFERENCES conversations(id),
                                                   state text NOT NULL DEFAULT 'member', invited_by text COLLATE "C", invited_at double precision,
                                                   PRIMARY KEY (user_id, conversation_id))
                """,
                "CREATE INDEX conversation_members_by_conversation ON conversation_members (conversation_id, user_id)",
                "CREATE INDEX conversation_members_invited ON conversation_members (user_id, invited_by) WHERE state = 'invited'",
                #"CREATE TABLE conversation_accepts (user_id text COLLATE "C" NOT NULL, accepted_id text COLLATE "C" NOT NULL, PRIMARY KEY (user_id, accepted_id))"#,
                #"CREATE TABLE conversation_blocks (user_id text COLLATE "C" NOT NULL, blocked_id text COLLATE "C" NOT NULL, PRIMARY KEY (user_id, blocked_id))"#,
            ])
    ]

    private let database: PGDatabase

    /// Creates the directory over an open database.
    public init(database: PGDatabase) { self.database = database }

    public func members(of conversationID: ConversationID) async throws -> [UserID]? {
        let rows = try await database.query(
            """
            SELECT m.user_id FROM conversations c LEFT JOIN conversation_members m ON m.conversation_id = c.id AND m.state = 'member'
            WHERE c.id = \(conversationID.rawValue)
            """)
        guard !rows.isEmpty else { return nil }
        return try rows.compactMap { try $0.decode(String?.self).map(UserID.init(rawValue:)) }
    }

    public func contacts(of user: UserID) async throws -> [UserID] {
        try await database.query(
            """
            SELECT DISTINCT o.user_id FROM conversation_members c JOIN conversation_members o ON o.conversation_id = c.conversation_id
            WHERE c.user_id = \(user.rawValue) AND c.state = 'member' AND o.state = 'member' AND o.user_id != \(user.rawValue)
            AND o.user_id NOT IN (SELECT blocked_id FROM conversation_blocks WHERE user_id = \(user.rawValue))
            """
        ).map { UserID(try $0.decode(String.self)) }
    }

    public func blocks(involving user: UserID) async throws -> (blocked: Set<UserID>, blockers: Set<UserID>) {
        var (blocked, blockers) = (Set<UserID>(), Set<UserID>())
        for row in try await database.query(
            """
            SELECT user_id, blocked_id FROM conversation_blocks WHERE user_id = \(user.rawValue) OR blocked_id = \(user.rawValue)
            """)
        {
            let (who, whom) = try row.decode((String, String).self)
            if who == user.rawValue { blocked.insert(UserID(whom)) } else { blockers.insert(UserID(who)) }
        }
        return (blocked, blockers)
    }
}
