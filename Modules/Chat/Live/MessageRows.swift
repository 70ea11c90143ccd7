import Chat
import Foundation
import GRDB
import Kernel

/// How a message is read from the `messages` table, for every query of Chat's SQL side.
enum MessageRows {
    /// The columns `message(_:)` reads, in its order, for `SELECT`s over `messages m`.
    static let columns = "m.id, m.conversation_id, m.sender_id, m.text, m.sent_at"

    /// A message from a row whose first columns are `columns` (by position: much faster than by name).
    /// - Throws: GRDB's `RowDecodingError` for a damaged row (a NULL or a wrong type).
    static func message(_ row: Row) throws -> Message {
        Message(id: MessageID(try row.decode(String.self, atIndex: 0)), conversationID: ConversationID(try row.decode(String.self, atIndex: 1)),
                senderID: UserID(try row.decode(String.self, atIndex: 2)), text: try row.decode(atIndex: 3),
                sentAt: date(milliseconds: try row.decode(atIndex: 4)))
    }

    /// Message times are stored as whole milliseconds since 1970, exactly.
    static func date(milliseconds: Int) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1_000) }

    /// The newest message's `seq` (0 for none): where a live reader starts.
    static func newestSeq(_ db: Database) throws -> Int { try Int.fetchOne(db, sql: "SELECT max(seq) FROM messages") ?? 0 }
}
