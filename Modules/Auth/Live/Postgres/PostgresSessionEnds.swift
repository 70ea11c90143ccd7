import Foundation
import Kernel
import PostgresNIO
import PostgresStore
import Synchronization

/// The sessions that ended in the database lately, whoever ended them: a sign-out or password
/// change through any instance, an expiry, an operator's `DELETE`. A trigger notes each deleted
/// session's digest with the time; every instance reads the notes of the last `window` seconds
/// once a second and closes those sessions' sockets, so that a revocation reaches every instance
/// within about a second. Reading a window rather than "after the last position" is what keeps a
/// note that committed late from being skipped.
public final class PostgresSessionEnds: Sendable {
    /// Seconds a note is read for: longer than any transaction that deletes a session lasts.
    public static let window = 10.0

    /// The migration that keeps the notes (notes older than a minute are dropped as new ones come).
    static let migration = PGDatabase.Migration(
        feature: "auth", version: 2,
        [
            """
            CREATE TABLE auth_session_ends (position bigserial PRIMARY KEY, token_digest text COLLATE "C" NOT NULL,
                                            ended_at double precision NOT NULL DEFAULT extract(epoch FROM clock_timestamp()))
            """,
            "CREATE INDEX auth_session_ends_by_time ON auth_session_ends (ended_at)",
            """
            CREATE FUNCTION auth_note_session_ends() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO auth_session_ends (token_digest) SELECT token_digest FROM ended;
                DELETE FROM auth_session_ends WHERE ended_at < extract(epoch FROM clock_timestamp()) - 60;
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER auth_sessions_ended AFTER DELETE ON auth_sessions REFERENCING OLD TABLE AS ended
            FOR EACH STATEMENT EXECUTE FUNCTION auth_note_session_ends()
            """,
        ])

    private let database: PGDatabase
    /// The notes read already, by position, with their time.
    private let seen = Mutex<[Int64: Double]>([:])

    /// Reads the notes of `database`.
    public init(database: PGDatabase) {
        self.database = database
    }

    /// The digests of the sessions that ended since the last call (on the first, in the last
    /// `window` seconds).
    /// - Throws: the database's error when it cannot be read.
    public func newlyEnded() async throws -> [String] {
        let rows = try await database.query(
            """
            SELECT position, token_digest, ended_at, extract(epoch FROM clock_timestamp())::double precision FROM auth_session_ends
            WHERE ended_at > extract(epoch FROM clock_timestamp()) - \(Self.window) ORDER BY position
            """)
        let notes = try rows.map { try $0.decode((Int64, String, Double, Double).self) }
        return seen.withLock { seen in
            if let now = notes.first?.3 { seen = seen.filter { $0.value > now - Self.window } }
            return notes.compactMap { position, digest, endedAt, _ in
                guard seen.updateValue(endedAt, forKey: position) == nil else { return nil }
                return digest
            }
        }
    }
}
