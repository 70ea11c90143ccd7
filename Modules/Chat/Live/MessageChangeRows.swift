import Chat
import Kernel

/// Message changes as both stores read them, in two steps: the change rows first (`columns`, a
/// few bytes each), then each changed message once (`keys`). A message with 1,900 reactions holds
/// 76 KB of who reacted, and a page of the event log may hold 500 changes of it: joined to its
/// message, each change row would read and copy those bytes again.
struct MessageChangeRows {
    /// The columns of a change row, for `SELECT`s over `message_changes x`, in `Row`'s order.
    static let columns = "x.seq, x.kind, x.conversation_id, x.message_id"

    /// One stored change: its position, its kind and the message it changed.
    struct Row {
        let seq: Int64
        let kind: String
        let key: Key
    }

    /// A message, as the store keys it: its id is unique within its conversation.
    struct Key: Hashable {
        let conversationID: String
        let messageID: String
    }

    /// The rows read, in `seq` order.
    let rows: [Row]

    /// The messages the rows changed, each once, in the order they were first changed.
    var keys: [Key] {
        var seen = Set<Key>()
        return rows.map(\.key).filter { seen.insert($0).inserted }
    }

    /// The change events of `rows`, each with its message as it is now, found among `messages`
    /// (the store's read of `keys`). A change whose message was not read is passed over, as a
    /// join would; one of a kind this build does not know throws, unless `skippingDamaged`.
    /// - Throws: `.internal` for an unknown kind.
    func events(_ messages: [Message], epoch: String, skippingDamaged: Bool) throws -> [UserEvent] {
        let byKey = Dictionary(messages.map { (Key(conversationID: $0.conversationID.rawValue, messageID: $0.id.rawValue), $0) }) { first, _ in
            first
        }
        return try rows.compactMap { row in
            guard let message = byKey[row.key] else { return nil }
            guard let kind = UserEvent.MessageChange(rawValue: row.kind) else {
                if skippingDamaged { return nil }
                throw AppError(.internal, "a stored message change has an unknown kind")
            }
            return .changed(kind, message, cursor: EventCursor(epoch: epoch, position: row.seq))
        }
    }
}
