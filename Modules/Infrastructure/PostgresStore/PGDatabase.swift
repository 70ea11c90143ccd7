import Foundation
import Kernel
import Logging
import NIOPosix
import PostgresNIO
import Synchronization

/// A PostgreSQL database that several MessageAI server instances share: a pool of connections
/// (postgres-nio's client, run by a task of its own), the schema migrated once whoever starts
/// first, and ticks when anyone commits. Writes that store events are ordered by
/// `PostgresChangeLog` (ADR 21): each takes the store's sequence row first, so commits and
/// positions come in one order.
public final class PGDatabase: Sendable {
    /// The database it stands for.
    public let location: Location
    let client: PostgresClient
    /// Where its failures and queries are logged.
    public let logger: Logger
    private let runner: Task<Void, Never>
    private let ticks = Broadcaster<Void>(bufferSize: 1)
    private let watcher = Mutex<Task<Void, Never>?>(nil)
    private let statements: InFlightStatements
    /// This instance's writes whose size a caller controls, taking turns (`takingTurns`).
    private let heavyWrites = OneAtATime()

    /// The event loop of every database connection in the process: one of its own, so that the
    /// database's traffic never waits behind the clients' sockets, nor they behind it.
    static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// The channel on which commits that store events are announced.
    static let channel = "messageai_events"
    /// How often the database is looked at for others' commits when no announcement came: a
    /// listening connection that dropped misses announcements, never events.
    static let lookInterval = Duration.seconds(1)

    private init(location: Location, connections: Int, logger: Logger) {
        self.location = location
        self.logger = logger
        statements = InFlightStatements(location: location)
        client = PostgresClient(
            configuration: location.configuration(connections: connections), eventLoopGroup: Self.eventLoops, backgroundLogger: logger)
        let client = client
        // Started at once, so that the pool runs before the first query asks it for a connection.
        runner = Task.immediate { await client.run() }
    }

    deinit {
        runner.cancel()
        statements.stop()
        watcher.withLock { $0?.cancel() }
    }

    /// Connects to the database at `url` with a pool of at most `connections` (and one more that
    /// listens for commits) and brings its schema up to `migrations`, one instance at a time (an
    /// advisory lock held by the migrating transaction); then analyzes the tables that hold rows
    /// but have no statistics yet (`analyzeTablesWithoutStatistics`).
    /// - Throws: `.usage` for a bad URL; `.unavailable` when the database cannot be reached
    ///   or does not exist, or was migrated by a newer version.
    public static func open(_ url: String, migrations: [Migration], connections: Int, logger: Logger) async throws -> PGDatabase {
        let location = try Location(url: url)
        do {
            try await location.probe(logger: logger)
        } catch {
            throw failure(error, location)
        }
        let database = PGDatabase(location: location, connections: connections, logger: logger)
        do {
            try await database.migrate(PostgresChangeLog.migrations + migrations)
            try await database.analyzeTablesWithoutStatistics()
        } catch {
            database.runner.cancel()
            throw error
        }
        return database
    }

    /// Stops the connections and ends every `changes()` stream; queries after it fail.
    public func close() {
        runner.cancel()
        statements.stop()
        watcher.withLock { task in
            task?.cancel()
            task = nil
        }
        ticks.finish()
    }

    /// Runs `query` on a connection of the pool and returns its rows.
    @discardableResult
    public func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        let (logger, statements) = (logger, statements)
        return try await explained {
            try await client.withConnection { connection in
                try await statements.run(on: connection) { try await connection.query(query, logger: logger).collect() }
            }
        }
    }

    /// An open transaction: its statements run one after the other on its connection.
    public struct Transaction: Sendable {
        let connection: PostgresConnection
        let logger: Logger
        let statements: InFlightStatements

        /// Runs `query` in the transaction and returns its rows.
        @discardableResult
        public func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
            let (connection, logger) = (connection, logger)
            return try await statements.run(on: connection) { try await connection.query(query, logger: logger).collect() }
        }
    }

    /// Runs `work`, writes whose size a caller controls (a group of 1,000 people, in parts; a
    /// change of a message with 1,900 reactions), after such work of this instance that came before it has ended: however many arrive
    /// together, a send waits behind one part of one of them per instance at most.
    public func takingTurns<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await heavyWrites.run(work)
    }

    /// Runs `body` in a transaction that commits when it returns. With `ordered`, the transaction
    /// first takes the store's sequence row (`PostgresChangeLog.lock`), as every write that
    /// stores an event must: writes then commit one at a time in the order they took it, as on
    /// SQLite. Others commit whenever they come.
    public func write<T: Sendable>(ordered: Bool = true, _ body: @Sendable (Transaction) async throws -> T) async throws -> T {
        let result = try await explained {
            try await transaction { transaction in
                if ordered { try await PostgresChangeLog.lock(transaction) }
                return try await body(transaction)
            }
        }
        if ordered { ticks.send(()) }
        return result
    }

    /// Runs `body` between BEGIN and COMMIT on a connection of the pool (ROLLBACK when it throws);
    /// each statement, these too, fails rather than hangs when the connection closes under it.
    func transaction<T: Sendable>(_ body: @Sendable (Transaction) async throws -> T) async throws -> T {
        let (logger, statements) = (logger, statements)
        return try await client.withConnection { connection in
            let transaction = Transaction(connection: connection, logger: logger, statements: statements)
            try await transaction.query("BEGIN")
            do {
                let result = try await body(transaction)
                try await transaction.query("COMMIT")
                return result
            } catch {
                if !connection.isClosed { _ = try? await transaction.query("ROLLBACK") }
                throw error
            }
        }
    }

    /// Ticks after each commit that stored events, this instance's at once and others' when
    /// announced (or found by a look once a second); a slow reader's ticks become one.
    public func changes() -> AsyncStream<Void> {
        watcher.withLock { task in
            let stream = ticks.subscribe()
            if task == nil { task = Task { [weak self] in await self?.watch() } }
            return stream
        }
    }

    /// Ticks at once, for a commit of this instance's made outside `write(ordered:)`.
    public func notifyLocalChange() { ticks.send(()) }

    /// Sends `payload` to every instance listening on `channel` (NOTIFY): nothing is stored, and
    /// an instance not listening at that moment never gets it.
    public func signal(_ payload: String, on channel: String) async throws {
        try await query("SELECT pg_notify(\(channel), \(payload))")
    }

    /// What is sent on `channel` from now on, by any instance, while the stream is read: on a
    /// connection of its own, reconnected a second after a drop (what is sent meanwhile is lost).
    /// Returns once it listens, or after `lookInterval` twice when the database cannot be reached yet.
    public func signals(on channel: String) async -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let (listening, heardListening) = AsyncStream<Void>.makeStream()
        let listener = Task { [location, logger] in
            await Self.listen(on: channel, at: location, logger: logger) { payload in
                if let payload { continuation.yield(payload) } else { heardListening.yield() }
            }
        }
        continuation.onTermination = { _ in listener.cancel() }
        let timeout = Task {
            try? await Task.sleep(for: Self.lookInterval * 2)
            heardListening.finish()
        }
        defer { timeout.cancel() }
        var started = listening.makeAsyncIterator()
        _ = await started.next()
        return stream
    }

    /// Listens for announcements on a connection of its own (outside the pool), and looks once a second whatever
    /// comes, while anyone subscribes; reconnects after a drop.
    private func watch() async {
        let listener = Task { [location, ticks, logger] in
            await Self.listen(on: Self.channel, at: location, logger: logger) { _ in ticks.send(()) }
        }
        defer { listener.cancel() }
        while !Task.isCancelled {
            let stopped = watcher.withLock { task in
                guard ticks.subscriberCount == 0 else { return false }
                task = nil
                return true
            }
            if stopped { return }
            try? await Task.sleep(for: Self.lookInterval)
            ticks.send(())
        }
    }

    /// Hands `heard` each payload sent on `channel`, and `nil` each time the listening
    /// connection is (re)made, until cancelled; a connection that drops is made again after `lookInterval`.
    private static func listen(on channel: String, at location: Location, logger: Logger, _ heard: @escaping @Sendable (String?) -> Void) async {
        while !Task.isCancelled {
            do {
                let connection = try await location.connect(logger: logger)
                do {
                    try await connection.listen(on: channel) { notifications in
                        heard(nil)
                        for try await notification in notifications { heard(notification.payload) }
                    }
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
            } catch {
                logger.debug("listening on \(channel) failed; again in a second", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: lookInterval)
        }
    }

    /// Runs ANALYZE on each table of the schema that holds rows but has no statistics: a restored
    /// backup, or a database `messageai-server migrate` filled. Until autovacuum's first pass
    /// (a minute or more) the planner would guess such a table's contents; an empty table is left
    /// alone (its statistics would say "empty" while it fills).
    public func analyzeTablesWithoutStatistics() async throws {
        let tables = try await query(
            """
            SELECT c.relname::text FROM pg_class c
            WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND pg_relation_size(c.oid) > 0
              AND NOT EXISTS (SELECT 1 FROM pg_stats s WHERE s.schemaname = current_schema() AND s.tablename = c.relname)
            ORDER BY 1
            """
        ).map { try $0.decode(String.self) }
        for table in tables {
            try await query(PostgresQuery(unsafeSQL: "ANALYZE \"\(table.replacingOccurrences(of: "\"", with: "\"\""))\""))
        }
    }

    /// Runs `operation`; a database that cannot be reached, does not exist or refuses us leaves
    /// as `.unavailable` for people, and anything else (an error of the caller's from inside a
    /// transaction) as it was thrown.
    func explained<T>(_ operation: () async throws -> T) async throws -> T {
        do {
            return try await operation()
        } catch {
            throw Self.failure(error, location)
        }
    }

    /// Whether `error` is PostgreSQL refusing a statement for what it holds (a value, a
    /// constraint), rather than the connection, the transaction or the server failing (classes
    /// 08, 40, 53, 57, 58), after which the same statement with other values may still succeed.
    public static func refusedStatement(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, error.code == .server, let state = error.serverInfo?[.sqlState] else { return false }
        return !["08", "40", "53", "57", "58"].contains(String(state.prefix(2)))
    }

    /// An error of the database's, as people should read it: `.unavailable` when PostgreSQL cannot
    /// be reached or refuses us, else `.internal` with its words, for an operator (a server logs
    /// them and answers only an id: `ErrorReply.failure`).
    static func failure(_ error: any Error, _ location: Location) -> any Error {
        // The pool's own refusals (no connection could be made lately: its circuit breaker)
        // come as a type of its underscored module, which is not ours to import.
        if String(describing: type(of: error)) == "ConnectionPoolError" {
            return AppError(.unavailable, "PostgreSQL at \(location) cannot be reached; try again")
        }
        guard let error = error as? PSQLError else { return error }
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            let message = error.serverInfo?[.message] ?? "failed"
            switch state {
            case "3D000": return AppError(.unavailable, "the database \(location.database) does not exist at \(location); create it first")
            case "28P01", "28000": return AppError(.unavailable, "PostgreSQL at \(location) refused user \(location.user): \(message)")
            case let state where state.hasPrefix("57P") || state.hasPrefix("08"):
                return AppError(.unavailable, "PostgreSQL at \(location) is unavailable (\(message)); try again")
            default: return AppError(.internal, "PostgreSQL failed (\(state)): \(message)")
            }
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown:
            return AppError(.unavailable, "PostgreSQL at \(location) cannot be reached; try again")
        default:
            return AppError(.internal, "PostgreSQL failed: \(String(reflecting: error))")
        }
    }
}
