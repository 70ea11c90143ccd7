import Chat
import GRDB
import Kernel
import SQLStore
import Synchronization

/// The process's one reader of new messages in the SQLite file: on each change tick (a commit
/// by any process) it reads the rows past its cursor once and fans them out by conversation and
/// member, so the cost of a message does not grow with the number of live readers.
public final class SQLMessageFeed: MessageFeed {
    private let database: SQLDatabase
    private let membership: any ConversationMembership
    private let epoch: String
    private let fanOut = MessageFanOut()
    private let reader = Mutex<Task<Void, Never>?>(nil)

    /// Creates the feed of the database whose epoch is `epoch` (`ChatSchema.epoch`); its reader
    /// starts with the first subscription.
    public init(database: SQLDatabase, membership: any ConversationMembership, epoch: String) {
        self.database = database
        self.membership = membership
        self.epoch = epoch
    }

    deinit { reader.withLock { $0?.cancel() } }

    public func subscribe(conversation conversationID: ConversationID?, member: UserID) async throws -> AsyncStream<Message> {
        try await startReader()
        return fanOut.subscribe(conversation: conversationID, member: member)
    }

    /// Starts the reader unless it runs. The change subscription comes before the cursor is
    /// read, and both before the first reader registers, so no commit falls between.
    private func startReader() async throws {
        if reader.withLock({ $0 != nil }) { return }
        let ticks = database.changes.subscribe()
        let start = try await database.read(MessageRows.newestSeq)
        let (database, membership, fanOut, epoch) = (database, membership, fanOut, epoch)
        reader.withLock { task in
            guard task == nil else { return }
            task = Task { await Self.read(from: start, ticks: ticks, epoch: epoch, database, membership, fanOut) }
        }
    }

    private static func read(from start: Int, ticks: AsyncStream<Void>, epoch: String, _ database: SQLDatabase,
                             _ membership: any ConversationMembership, _ fanOut: MessageFanOut) async {
        var cursor = start
        for await _ in ticks {
            let after = cursor
            guard let batch = try? await database.read({ db in try Self.messages(after: after, epoch: epoch, db) }) else { continue }
            cursor = batch.cursor
            for message in batch.messages {
                guard let members = try? await membership.members(of: message.conversationID) else { continue }
                fanOut.publish(message, to: members)
            }
        }
    }

    /// Messages past `cursor`, and the cursor to use next. A damaged row is passed over (the
    /// cursor moves past it), so one bad row cannot stop live delivery for good.
    private static func messages(after cursor: Int, epoch: String, _ db: Database) throws -> (messages: [Message], cursor: Int) {
        let rows = try Row.fetchAll(db, sql: "SELECT \(MessageRows.columns) FROM messages m WHERE seq > ? ORDER BY seq", arguments: [cursor])
        let next = rows.compactMap { try? $0.decode(Int.self, atIndex: 5) }.max() ?? cursor
        return (rows.compactMap { try? MessageRows.message($0, epoch: epoch) }, max(next, cursor))
    }
}
