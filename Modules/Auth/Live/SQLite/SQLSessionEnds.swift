import Foundation
import GRDB
import Kernel
import SQLStore
import Synchronization

/// The sessions that ended in a SQLite file lately, whoever ended them: a sign-out or password
/// change through the server, an operator's suspension from another process, an expiry. A
/// trigger notes each deleted session's digest; a server reads the notes once a second and
/// closes those sessions' sockets, so that a suspension made beside it reaches its sockets within
/// about a second, as on PostgreSQL (`PostgresSessionEnds`). SQLite's one writer numbers the
/// notes in commit order, so reading after the last one seen skips none.
public final class SQLSessionEnds: Sendable {
    /// The migration that keeps the notes (notes older than a minute are dropped as new ones come).
    public static let migration = SchemaMigration(
        feature: "auth", version: 10,
        sql: """
            CREATE TABLE auth_session_ends (
                position INTEGER PRIMARY KEY,
                token_digest TEXT NOT NULL,
                ended_at INTEGER NOT NULL
            );
            CREATE INDEX auth_session_ends_by_time ON auth_session_ends(ended_at);
            CREATE TRIGGER auth_sessions_ended AFTER DELETE ON auth_sessions BEGIN
                INSERT INTO auth_session_ends (token_digest, ended_at) VALUES (OLD.token_digest, CAST(strftime('%s', 'now') AS INTEGER));
                DELETE FROM auth_session_ends WHERE ended_at < CAST(strftime('%s', 'now') AS INTEGER) - 60;
            END;
            """)

    private let database: SQLDatabase
    private let last: Mutex<Int64?>

    /// Reads the notes of `database`, from those written after this moment.
    public init(database: SQLDatabase) {
        self.database = database
        last = Mutex(nil)
    }

    /// The digests of the sessions that ended since the last call (none on the first, which
    /// marks where the reading starts).
    /// - Throws: the database's error when it cannot be read.
    public func newlyEnded() async throws -> [String] {
        let after = last.withLock { $0 }
        let rows = try await database.read { db in
            guard let after else { return [(try Int64.fetchOne(db, sql: "SELECT coalesce(max(position), 0) FROM auth_session_ends") ?? 0, "")] }
            return try Row.fetchAll(
                db, sql: "SELECT position, token_digest FROM auth_session_ends WHERE position > ? ORDER BY position", arguments: [after]
            )
            .map { (try $0.decode(Int64.self, atIndex: 0), try $0.decode(String.self, atIndex: 1)) }
        }
        if let newest = rows.last?.0 { last.withLock { $0 = max($0 ?? 0, newest) } }
        return after == nil ? [] : rows.map(\.1)
    }
}
