import Chat
import GRDB
import Kernel
import SQLStore

/// How the one stream of events is read from the `messages` and `store_changes` tables: both
/// are numbered by the store's sequence, so the stream is the two merged by `seq`.
enum EventRows {
    /// The events `reader` may see after `seq`, oldest first, at most `limit`: the messages of
    /// the conversations they are a member of now, and the changes stored with them in their
    /// audience.
    static func events(after seq: Int64, for reader: UserID, limit: Int, epoch: String, _ db: Database) throws -> [UserEvent] {
        let arguments: StatementArguments = ["me": reader.rawValue, "after": seq, "limit": limit]
        let messages = try Row.fetchAll(
            db,
            sql: """
                SELECT \(MessageRows.columns) FROM messages m
                JOIN conversation_members c ON c.conversation_id = m.conversation_id AND c.user_id = :me AND c.state = 'member'
                \(MessageRows.replyJoin)
                WHERE m.seq > :after ORDER BY m.seq LIMIT :limit
                """, arguments: arguments)
        let changes = try Row.fetchAll(
            db,
            sql: """
                SELECT \(SQLChangeLog.columns) FROM store_audiences a JOIN store_changes s ON s.seq = a.seq
                WHERE a.user_id = :me AND a.seq > :after ORDER BY a.seq LIMIT :limit
                """, arguments: arguments)
        let messageChanges = try MessageRows.changeRows(
            db,
            sql: """
                SELECT \(MessageChangeRows.columns) FROM message_changes x
                JOIN conversation_members c ON c.conversation_id = x.conversation_id AND c.user_id = :me AND c.state = 'member'
                WHERE x.seq > :after ORDER BY x.seq LIMIT :limit
                """, arguments: arguments, skippingDamaged: false)
        return Array(
            try merged(messages, try MessageRows.events(of: messageChanges, epoch: epoch, skippingDamaged: false, db), changes, epoch: epoch)
                .prefix(limit))
    }

    /// The newest `seq` of an event `reader` may see, if any.
    static func newest(for reader: UserID, _ db: Database) throws -> Int64? {
        let message = try Int64.fetchOne(
            db,
            sql: """
                SELECT max(a.last_seq) FROM conversation_members c JOIN chat_activity a ON a.conversation_id = c.conversation_id
                WHERE c.user_id = :me AND c.state = 'member'
                """, arguments: ["me": reader.rawValue])
        let change = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM store_audiences WHERE user_id = :me", arguments: ["me": reader.rawValue])
        let messageChange = try Int64.fetchOne(
            db,
            sql: """
                SELECT max(x.seq) FROM conversation_members c JOIN message_changes x ON x.conversation_id = c.conversation_id
                WHERE c.user_id = :me AND c.state = 'member'
                """, arguments: ["me": reader.rawValue])
        return [message, change, messageChange].compactMap { $0 }.max()
    }

    /// Every event after `seq`, whoever may see it, oldest first, and the `seq` to read after
    /// next. A damaged row is passed over (the position moves past it), so one bad row cannot
    /// stop live delivery for good.
    static func all(after seq: Int64, epoch: String, _ db: Database) throws -> (events: [UserEvent], last: Int64) {
        let messages = try Row.fetchAll(
            db, sql: "SELECT \(MessageRows.columns) FROM messages m \(MessageRows.replyJoin) WHERE m.seq > ? ORDER BY m.seq",
            arguments: [seq])
        let changes = try Row.fetchAll(
            db, sql: "SELECT \(SQLChangeLog.columns) FROM store_changes s WHERE s.seq > ? ORDER BY s.seq", arguments: [seq])
        let messageChanges = try MessageRows.changeRows(
            db, sql: "SELECT \(MessageChangeRows.columns) FROM message_changes x WHERE x.seq > ? ORDER BY x.seq", arguments: [seq],
            skippingDamaged: true)
        let last =
            (messages.compactMap { try? $0.decode(Int64.self, atIndex: MessageRows.seqIndex) } + messageChanges.rows.map(\.seq)
            + changes.compactMap { try? $0.decode(Int64.self, atIndex: 0) }).max()
        let changed = try MessageRows.events(of: messageChanges, epoch: epoch, skippingDamaged: true, db)
        return (try merged(messages, changed, changes, epoch: epoch, skippingDamaged: true), max(last ?? seq, seq))
    }

    /// Message rows, message change events and change rows (each in `seq` order) as one list in `seq` order.
    private static func merged(
        _ messages: [Row], _ messageChanges: [UserEvent], _ changes: [Row], epoch: String,
        skippingDamaged: Bool = false
    ) throws -> [UserEvent] {
        var events: [UserEvent] = []
        events.reserveCapacity(messages.count + messageChanges.count + changes.count)
        for row in messages {
            do { events.append(.message(try MessageRows.message(row, epoch: epoch))) } catch  where skippingDamaged {}
        }
        events += messageChanges
        for row in changes {
            do {
                let (seq, change) = try SQLChangeLog.change(row)
                events.append(.change(change, cursor: EventCursor(epoch: epoch, position: seq)))
            } catch  where skippingDamaged {}
        }
        guard [messages.isEmpty, messageChanges.isEmpty, changes.isEmpty].count(where: { !$0 }) > 1 else { return events }
        return events.sorted { ($0.cursor?.position ?? 0) < ($1.cursor?.position ?? 0) }
    }
}
