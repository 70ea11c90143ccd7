import Chat
import Foundation
import GRDB
import Kernel

/// How a message is read from the `messages` table, for every query of Chat's SQL side.
enum MessageRows {
    /// The columns `message(_:)` reads, in its order, for `SELECT`s over `messages m`.
    static let columns = "m.id, m.conversation_id, m.sender_id, m.text, m.sent_at"

    /// A message from a row whose first columns are `columns` (by position: much faster than by name).
    static func message(_ row: Row) -> Message {
        Message(id: MessageID(row[0] as String), conversationID: ConversationID(row[1] as String),
                senderID: UserID(row[2] as String), text: row[3], sentAt: date(milliseconds: row[4]))
    }

    /// Message times are stored as whole milliseconds since 1970, exactly.
    static func date(milliseconds: Int) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1_000) }

    /// The newest message's `seq` (0 for none): where a live reader starts.
    static func newestSeq(_ db: Database) throws -> Int { try Int.fetchOne(db, sql: "SELECT max(seq) FROM messages") ?? 0 }
}
