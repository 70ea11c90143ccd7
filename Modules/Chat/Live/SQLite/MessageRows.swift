import Chat
import Foundation
import GRDB
import Kernel

/// How a message is read from the `messages` table, for every query of Chat's SQL side.
enum MessageRows {
    /// The columns `message(_:epoch:)` reads, in its order, for `SELECT`s over `messages m`; a
    /// query's own columns start at index `count`.
    static let columns = "m.id, m.conversation_id, m.sender_id, m.text, m.sent_at, m.seq"
    /// How many `columns` there are.
    static let count = 6
    /// Where `m.seq` is among `columns`.
    static let seqIndex = 5

    /// A message from a row whose first columns are `columns` (by position: much faster than by
    /// name), with its cursor in `epoch` (none without one: a list preview needs none).
    /// - Throws: GRDB's `RowDecodingError` for a damaged row (a NULL or a wrong type).
    static func message(_ row: Row, epoch: String?) throws -> Message {
        Message(id: MessageID(try row.decode(String.self, atIndex: 0)), conversationID: ConversationID(try row.decode(String.self, atIndex: 1)),
                senderID: UserID(try row.decode(String.self, atIndex: 2)), text: try row.decode(atIndex: 3),
                sentAt: date(milliseconds: try row.decode(atIndex: 4)),
                cursor: try epoch.map { EventCursor(epoch: $0, position: try row.decode(Int64.self, atIndex: seqIndex)) })
    }

    /// Message times are stored as whole milliseconds since 1970, exactly.
    static func date(milliseconds: Int) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1_000) }
}
