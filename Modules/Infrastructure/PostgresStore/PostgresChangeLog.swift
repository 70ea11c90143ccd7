import Kernel
import PostgresNIO

/// The store-wide order of everything a user may see, on PostgreSQL: as on SQLite
/// (`SQLChangeLog`), one sequence numbers messages and `StoreChange`s alike, kept in one row of
/// `store_sequence`, with the changes in `store_changes` and who sees each in `store_audiences`.
///
/// Every transaction that stores an event takes that row first (`lock`), or a statement that is
/// its own transaction takes it as it numbers (`numberingOne`), and holds it to its commit, so
/// the next writer, on any instance, numbers after a commit that is already visible: a reader
/// that has seen position n has seen every position below it (ADR 21). A rollback gives its
/// numbers back, so positions have no gaps.
public enum PostgresChangeLog {
    /// The tables, migrated before any feature's.
    static let migrations = [
        PGDatabase.Migration(
            feature: "store", version: 1,
            [
                "CREATE TABLE store_sequence (value bigint NOT NULL)",
                "INSERT INTO store_sequence (value) VALUES (0)",
                """
                CREATE TABLE store_changes (seq bigint PRIMARY KEY, kind text NOT NULL, conversation_id text COLLATE "C",
                                            user_id text COLLATE "C", display_name text)
                """,
                "CREATE INDEX store_changes_by_conversation ON store_changes (conversation_id) WHERE conversation_id IS NOT NULL",
                #"CREATE TABLE store_audiences (user_id text COLLATE "C" NOT NULL, seq bigint NOT NULL, PRIMARY KEY (user_id, seq))"#,
                "CREATE INDEX store_audiences_by_seq ON store_audiences (seq)",
            ])
    ]

    /// Takes the store's sequence row for the open transaction: the first thing a writer of
    /// events does (the order of locks that keeps writers from deadlocking each other).
    static func lock(_ transaction: PGDatabase.Transaction) async throws {
        try await transaction.query("SELECT value FROM store_sequence FOR UPDATE")
    }

    /// The first of the next `count` numbers of the store's order (at least 1), in the open
    /// transaction, which holds the sequence row already.
    public static func next(count: Int, _ transaction: PGDatabase.Transaction) async throws -> Int64 {
        let rows = try await transaction.query("UPDATE store_sequence SET value = value + \(count) RETURNING value")
        guard let last = try rows.first?.decode(Int64.self) else {
            throw AppError(.unavailable, "the database has no store sequence; it is damaged")
        }
        return last - Int64(count) + 1
    }

    /// The last number handed out (0 for none). Every event numbered up to it is committed and
    /// visible to any statement that starts after this one: readers read up to it, never past.
    public static func newest(_ database: PGDatabase) async throws -> Int64 {
        try await database.query("SELECT value FROM store_sequence").first?.decode(Int64.self) ?? 0
    }

    /// A common table expression, `numbered`, for a statement that stores one event after
    /// taking a row of its own (`after`, a CTE that returns a row when there is an event to
    /// store): it takes the sequence row in that statement, not first (ADR 21), and gives the
    /// event's number as `seq`. The statement stores the event from `numbered`, returning its
    /// `seq`, and ends with `announcing` it.
    public static func numberingOne(after: String) -> String {
        "numbered AS (UPDATE store_sequence SET value = value + 1 WHERE EXISTS (SELECT 1 FROM \(after)) RETURNING value AS seq)"
    }

    /// The end of a statement that stores events: tells the other instances, on commit, of the
    /// `seq` each row of the CTE `stored` returns.
    public static func announcing(_ stored: String) -> String {
        "SELECT pg_notify('\(PGDatabase.channel)', seq::text) FROM \(stored)"
    }

    /// Tells the other instances, once the open transaction commits, that events up to `seq` are stored.
    public static func announce(_ seq: Int64, _ transaction: PGDatabase.Transaction) async throws {
        try await transaction.query("SELECT pg_notify(\(PGDatabase.channel), \(String(seq)))")
    }

    /// Records `change` with the next number, seen by `audience`, in the open transaction.
    @discardableResult
    public static func record(_ change: StoreChange, audience: [UserID], _ transaction: PGDatabase.Transaction) async throws -> Int64 {
        let seq = try await next(count: 1, transaction)
        try await transaction.query(
            """
            INSERT INTO store_changes (seq, kind, conversation_id, user_id, display_name)
            VALUES (\(seq), \(change.kind.rawValue), \(change.conversationID?.rawValue), \(change.userID?.rawValue), \(change.displayName))
            """)
        try await transaction.query(
            """
            INSERT INTO store_audiences (user_id, seq) SELECT DISTINCT u, \(seq) FROM unnest(\(audience.map(\.rawValue))::text[]) u
            """)
        try await announce(seq, transaction)
        return seq
    }

    /// Records `changes`, numbered in their order, each seen by one person alone, in four
    /// statements whatever their number (numbering, two inserts, the announcement) (a new group's invitations), in the open transaction.
    public static func record(each changes: [(change: StoreChange, seenBy: UserID)], _ transaction: PGDatabase.Transaction) async throws {
        guard !changes.isEmpty else { return }
        let first = try await next(count: changes.count, transaction)
        // Arrays of text; '' stands for NULL (no kind, id or name is empty).
        let kinds = changes.map(\.change.kind.rawValue), conversations = changes.map { $0.change.conversationID?.rawValue ?? "" }
        let users = changes.map { $0.change.userID?.rawValue ?? "" }, names = changes.map { $0.change.displayName ?? "" }
        try await transaction.query(
            """
            INSERT INTO store_changes (seq, kind, conversation_id, user_id, display_name)
            SELECT \(first) + o - 1, k, NULLIF(c, ''), NULLIF(u, ''), NULLIF(n, '')
            FROM unnest(\(kinds)::text[], \(conversations)::text[], \(users)::text[], \(names)::text[]) WITH ORDINALITY AS t(k, c, u, n, o)
            """)
        try await transaction.query(
            """
            INSERT INTO store_audiences (user_id, seq) SELECT a, \(first) + o - 1 FROM unnest(\(changes.map(\.seenBy.rawValue))::text[]) WITH ORDINALITY AS t(a, o)
            """)
        try await announce(first + Int64(changes.count) - 1, transaction)
    }

    /// Who sees each of the changes numbered in `(after, upTo]`, by number.
    public static func audiences(after: Int64, upTo: Int64, _ database: PGDatabase) async throws -> [Int64: [UserID]] {
        var audiences: [Int64: [UserID]] = [:]
        for row in try await database.query("SELECT seq, user_id FROM store_audiences WHERE seq > \(after) AND seq <= \(upTo)") {
            let (seq, user) = try row.decode((Int64, String).self)
            audiences[seq, default: []].append(UserID(user))
        }
        return audiences
    }

    /// The columns `change(_:)` reads, for a `SELECT` from `store_changes s`.
    public static let columns = "s.seq, s.kind, s.conversation_id, s.user_id, s.display_name"

    /// The change in a row of `columns`, with its number.
    /// - Throws: when the row is damaged.
    public static func change(_ row: PostgresRow) throws -> (seq: Int64, change: StoreChange) {
        let (seq, kindName, conversation, user, displayName) = try row.decode((Int64, String, String?, String?, String?).self)
        guard let kind = StoreChange.Kind(rawValue: kindName) else {
            throw AppError(.internal, "store change \(seq) is of an unknown kind")
        }
        let change = try StoreChange(
            stored: kind, conversationID: conversation.map(ConversationID.init(rawValue:)),
            userID: user.map(UserID.init(rawValue:)), displayName: displayName)
        return (seq, change)
    }
}
