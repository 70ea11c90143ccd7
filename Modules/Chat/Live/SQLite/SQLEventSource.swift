import Chat
import Kernel
import SQLStore

/// The events of the SQLite file, for the process's `StoreEventFeed`: ticks from its change
/// monitor, and each read one snapshot of `messages`, `store_changes` and their audiences.
public struct SQLEventSource: EventSource {
    private let database: SQLDatabase
    private let epoch: String

    /// The events of `database`, whose epoch is `epoch` (`ChatSchema.epoch`).
    public init(database: SQLDatabase, epoch: String) {
        self.database = database
        self.epoch = epoch
    }

    public func changes() -> AsyncStream<Void> { database.changes.subscribe() }

    public func newest() async throws -> Int64 { try await database.read(SQLChangeLog.newest) }

    public func events(after seq: Int64) async throws -> (events: [UserEvent], audiences: [Int64: [UserID]], last: Int64) {
        let epoch = epoch
        return try await database.read { db in
            let (events, last) = try EventRows.all(after: seq, epoch: epoch, db)
            return (events, try SQLChangeLog.audiences(after: seq, db), last)
        }
    }
}
