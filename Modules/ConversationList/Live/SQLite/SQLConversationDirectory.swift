import ConversationList
import GRDB
import Kernel
import SQLStore

/// Membership look-ups in the SQLite database, for other features.
public struct SQLConversationDirectory: ConversationDirectory {
    private let database: SQLDatabase

    /// Creates the directory over an open database.
    public init(database: SQLDatabase) { self.database = database }

    public func members(of conversationID: ConversationID) async throws -> [UserID]? {
        try await database.read { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM conversations WHERE id = ?)", arguments: [conversationID.rawValue]) == true
            else { return nil }
            return try String.fetchAll(
                db, sql: "SELECT user_id FROM conversation_members WHERE conversation_id = ? AND state = 'member'",
                arguments: [conversationID.rawValue]
            ).map(UserID.init(rawValue:))
        }
    }

    public func contacts(of user: UserID) async throws -> [UserID] {
        try await database.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT o.user_id FROM conversation_members c JOIN conversation_members o ON o.conversation_id = c.conversation_id
                    WHERE c.user_id = :user AND c.state = 'member' AND o.state = 'member' AND o.user_id != :user
                    AND o.user_id NOT IN (SELECT blocked_id FROM conversation_blocks WHERE user_id = :user)
                    """, arguments: ["user": user.rawValue]
            ).map(UserID.init(rawValue:))
        }
    }

    public func blocks(involving user: UserID) async throws -> (blocked: Set<UserID>, blockers: Set<UserID>) {
        try await database.read { db in
            (
                Set(
                    try String.fetchAll(db, sql: "SELECT blocked_id FROM conversation_blocks WHERE user_id = ?", arguments: [user.rawValue]).map(
                        UserID.init(rawValue:))),
                Set(
                    try String.fetchAll(db, sql: "SELECT user_id FROM conversation_blocks WHERE blocked_id = ?", arguments: [user.rawValue]).map(
                        UserID.init(rawValue:)))
            )
        }
    }
}
