import Kernel
import PostgresNIO
import PostgresStore
import Profile

/// Profile's table on PostgreSQL, as on SQLite (`ProfileSchema`), and creating profiles and
/// reading display names in it, for other features.
public struct PostgresProfileRegistry: ProfileRegistry {
    /// Profile's migrations, oldest first.
    public static let migrations = [
        PGDatabase.Migration(
            feature: "profile", version: 1,
            [
                """
                CREATE TABLE profiles (id text COLLATE "C" PRIMARY KEY, email text COLLATE "C" NOT NULL UNIQUE, display_name text NOT NULL,
                                       name_key text COLLATE "C" NOT NULL, status text NOT NULL DEFAULT '')
                """,
                "CREATE INDEX profiles_by_name_key ON profiles (name_key text_pattern_ops)",
            ]),
        // A suspended account's name is marked where others see it (`ProfileRules.shownName`).
        PGDatabase.Migration(feature: "profile", version: 2, ["ALTER TABLE profiles ADD COLUMN suspended boolean NOT NULL DEFAULT false"]),
    ]

    private let database: PGDatabase

    /// Creates the registry over an open database.
    public init(database: PGDatabase) { self.database = database }

    public func createProfile(_ profile: Profile) async throws {
        try await database.write(ordered: false) { transaction in try await Self.insert(profile, transaction) }
    }

    /// Inserts a new profile inside the caller's transaction (sign-up writes the account and its
    /// profile together).
    /// - Throws: `.conflict` if the user or the email already has a profile.
    public static func insert(_ profile: Profile, _ transaction: PGDatabase.Transaction) async throws {
        let inserted = try await transaction.query(
            """
            INSERT INTO profiles (id, email, display_name, name_key, status)
            VALUES (\(profile.id.rawValue), \(profile.email), \(profile.displayName), \(profile.displayName.lowercased()), \(profile.status))
            ON CONFLICT DO NOTHING RETURNING id
            """)
        guard !inserted.isEmpty else { throw ProfileRules.profileExists(profile) }
    }

    public func eraseProfile(of id: UserID) async throws {
        let erased = ProfileRules.erased(id)
        try await database.query(
            """
            UPDATE profiles SET email = \(erased.email), display_name = \(erased.displayName), name_key = \(erased.displayName.lowercased()),
                                status = \(erased.status) WHERE id = \(id.rawValue)
            """)
    }

    public func setSuspended(_ id: UserID, _ suspended: Bool) async throws {
        try await database.query("UPDATE profiles SET suspended = \(suspended) WHERE id = \(id.rawValue)")
    }

    public func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
        guard !ids.isEmpty else { return [:] }
        var names: [UserID: String] = [:]
        names.reserveCapacity(ids.count)
        for row in try await database.query(
            """
            SELECT p.id, p.display_name, p.suspended, p.email FROM unnest(\(ids.map(\.rawValue))::text[]) ids(id) JOIN profiles p ON p.id = ids.id
            """)
        {
            let (id, name, suspended, email) = try row.decode((String, String, Bool, String).self)
            names[UserID(id)] = ProfileRules.shownName(name, suspended: suspended, email: email)
        }
        return names
    }
}
