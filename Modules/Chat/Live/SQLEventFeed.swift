import Chat
import GRDB
import Kernel
import SQLStore
import Synchronization

/// The process's one reader of new events in the SQLite file: on each change tick (a commit
/// by any process) it reads the messages and changes past its position once and fans them out
/// by conversation and audience, so the cost of an event does not grow with the number of live readers.
public final class SQLEventFeed: EventFeed {
    private let database: SQLDatabase
    private let membership: any ConversationMembership
    private let epoch: String
    private let fanOut = EventFanOut()
    private let reader = Mutex<Task<Void, Never>?>(nil)

    /// Creates the feed of the database whose epoch is `epoch` (`ChatSchema.epoch`); its reader
    /// starts with the first subscription.
    public init(database: SQLDatabase, membership: any ConversationMembership, epoch: String) {
        self.database = database
        self.membership = membership
        self.epoch = epoch
    }

    deinit { reader.withLock { $0?.cancel() } }

    public func subscribe(conversation conversationID: ConversationID?, member: UserID) async throws -> AsyncStream<UserEvent> {
        try await startReader()
        return fanOut.subscribe(conversation: conversationID, member: member)
    }

    /// Starts the reader unless it runs. The change subscription comes before the cursor is
    /// read, and both before the first reader registers, so no commit falls between.
    private func startReader() async throws {
        if reader.withLock({ $0 != nil }) { return }
        let ticks = database.changes.subscribe()
        let start = try await database.read(SQLChangeLog.newest)
        let (database, membership, fanOut, epoch) = (database, membership, fanOut, epoch)
        reader.withLock { task in
            guard task == nil else { return }
            task = Task { await Self.read(from: start, ticks: ticks, epoch: epoch, database, membership, fanOut) }
        }
    }

    private static func read(from start: Int64, ticks: AsyncStream<Void>, epoch: String, _ database: SQLDatabase,
                             _ membership: any ConversationMembership, _ fanOut: EventFanOut) async {
        var position = start
        for await _ in ticks {
            let after = position
            guard let batch = try? await database.read({ db in try EventRows.all(after: after, epoch: epoch, db) }) else { continue }
            position = batch.last
            for event in batch.events {
                guard let audience = try? await membership.audience(of: event) else { continue }
                fanOut.publish(event, to: audience)
            }
        }
    }
}
