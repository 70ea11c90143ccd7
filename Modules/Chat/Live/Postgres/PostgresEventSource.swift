import Chat
import Kernel
import PostgresNIO
import PostgresStore

/// The events of a PostgreSQL database, for the instance's `StoreEventFeed`: ticks on this
/// instance's commits and others' announcements (and once a second), and each read bounded by
/// the store's newest position read first (ADR 21): every event up to it is committed, so
/// reading up to it, in as many statements as it takes, skips nothing that will come later.
public struct PostgresEventSource: EventSource {
    private let database: PGDatabase
    private let epoch: String

    /// The events of `database`, whose epoch is `epoch` (`PostgresChatSchema.epoch`).
    public init(database: PGDatabase, epoch: String) {
        self.database = database
        self.epoch = epoch
    }

    public func changes() -> AsyncStream<Void> { database.changes() }

    public func newest() async throws -> Int64 { try await PostgresChangeLog.newest(database) }

    public func events(after seq: Int64) async throws -> (events: [UserEvent], audiences: [Int64: [UserID]], last: Int64) {
        let top = try await PostgresChangeLog.newest(database)
        guard top > seq else { return ([], [:], seq) }
        let messages = try await database.query(
            """
            SELECT \(unescaped: MessageRows.columns) FROM messages m \(unescaped: MessageRows.replyJoin) WHERE m.seq > \(seq) AND m.seq <= \(top) ORDER BY m.seq
            """)
        let changes = try await database.query(
            """
            SELECT \(unescaped: PostgresChangeLog.columns) FROM store_changes s WHERE s.seq > \(seq) AND s.seq <= \(top) ORDER BY s.seq
            """)
        let messageChanges = try await PostgresChatSchema.changeRows(
            """
            SELECT \(unescaped: MessageChangeRows.columns) FROM message_changes x WHERE x.seq > \(seq) AND x.seq <= \(top) ORDER BY x.seq
            """, skippingDamaged: true, database)
        let changed = try await PostgresChatSchema.events(of: messageChanges, epoch: epoch, skippingDamaged: true, database)
        let audiences = try await PostgresChangeLog.audiences(after: seq, upTo: top, database)
        return (try PostgresEventRows.merged(messages, changed, changes, epoch: epoch, skippingDamaged: true), audiences, top)
    }
}

/// The one stream of events read from `messages` and `store_changes`, merged by `seq`, as
/// SQLite's `EventRows` does.
enum PostgresEventRows {
    /// The events `reader` may see after `seq` and up to `top`, oldest first, at most `limit`.
    static func events(after seq: Int64, upTo top: Int64, for reader: UserID, limit: Int, epoch: String, _ database: PGDatabase) async throws
        -> [UserEvent]
    {
        let messages = try await database.query(
            """
            SELECT \(unescaped: MessageRows.columns) FROM messages m
            JOIN conversation_members c ON c.conversation_id = m.conversation_id AND c.user_id = \(reader.rawValue) AND c.state = 'member'
            \(unescaped: MessageRows.replyJoin)
            WHERE m.seq > \(seq) AND m.seq <= \(top) ORDER BY m.seq LIMIT \(limit)
            """)
        let changes = try await database.query(
            """
            SELECT \(unescaped: PostgresChangeLog.columns) FROM store_audiences a JOIN store_changes s ON s.seq = a.seq
            WHERE a.user_id = \(reader.rawValue) AND a.seq > \(seq) AND a.seq <= \(top) ORDER BY a.seq LIMIT \(limit)
            """)
        let messageChanges = try await PostgresChatSchema.changeRows(
            """
            SELECT \(unescaped: MessageChangeRows.columns) FROM message_changes x
            JOIN conversation_members c ON c.conversation_id = x.conversation_id AND c.user_id = \(reader.rawValue) AND c.state = 'member'
            WHERE x.seq > \(seq) AND x.seq <= \(top) ORDER BY x.seq LIMIT \(limit)
            """, skippingDamaged: false, database)
        let changed = try await PostgresChatSchema.events(of: messageChanges, epoch: epoch, skippingDamaged: false, database)
        return Array(try merged(messages, changed, changes, epoch: epoch).prefix(limit))
    }

    /// Message rows, message change events and change rows (each in `seq` order) as one list in
    /// `seq` order; with `skippingDamaged`, a row that does not read is passed over.
    static func merged(
        _ messages: [PostgresRow], _ messageChanges: [UserEvent], _ changes: [PostgresRow], epoch: String,
        skippingDamaged: Bool = false
    ) throws -> [UserEvent] {
        func read(_ row: PostgresRow, _ event: (PostgresRow) throws -> UserEvent) throws -> UserEvent? {
            do { return try event(row) } catch  where skippingDamaged { return nil }
        }
        var events: [UserEvent] = []
        events.reserveCapacity(messages.count + messageChanges.count + changes.count)
        events += try messages.compactMap { try read($0) { .message(try PostgresChatSchema.message($0, epoch: epoch)) } }
        events += messageChanges
        events += try changes.compactMap { row in
            try read(row) { row in
                let (seq, change) = try PostgresChangeLog.change(row)
                return .change(change, cursor: EventCursor(epoch: epoch, position: seq))
            }
        }
        return events.sorted { ($0.cursor?.position ?? 0) < ($1.cursor?.position ?? 0) }
    }
}
