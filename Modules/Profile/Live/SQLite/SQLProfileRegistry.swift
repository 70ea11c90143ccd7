import GRDB
import Kernel
import Profile
import SQLStore

/// Creating profiles and reading display names in the SQLite database, for other features.
public struct SQLProfileRegistry: ProfileRegistry {
    private let database: SQLDatabase

    /// Creates the registry over an open database.
    public init(database: SQLDatabase) { self.database = database }

    public func createProfile(_ profile: Profile) async throws {
        try await database.write { db in try Self.insert(profile, db) }
    }

    /// Inserts a new profile inside the caller's transaction (sign-up writes the account and its
    /// profile together).
    /// - Throws: `.conflict` if the user or the email already has a profile.
    public static func insert(_ profile: Profile, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO profiles (id, email, display_name, name_key, status) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """, arguments: [profile.id.rawValue, profile.email, profile.displayName, profile.displayName.lowercased(), profile.status])
        guard db.changesCount > 0 else { throw ProfileRules.profileExists(profile) }
    }

    public func eraseProfile(of id: UserID) async throws {
        let erased = ProfileRules.erased(id)
        try await database.write { db in
            try db.execute(
                sql: "UPDATE profiles SET email = ?, display_name = ?, name_key = ?, status = ? WHERE id = ?",
                arguments: [erased.email, erased.displayName, erased.displayName.lowercased(), erased.status, id.rawValue])
        }
    }

    public func setSuspended(_ id: UserID, _ suspended: Bool) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE profiles SET suspended = ? WHERE id = ?", arguments: [suspended, id.rawValue])
        }
    }

    public func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
        guard !ids.isEmpty else { return [:] }
        let list = try JSONIDs.encode(ids)
        return try await database.read { db in
            var names: [UserID: String] = [:]
            names.reserveCapacity(ids.count)
            let rows = try Row.fetchCursor(
                db, sql: "SELECT p.id, p.display_name, p.suspended, p.email FROM json_each(?) ids CROSS JOIN profiles p ON p.id = ids.value",
                arguments: [list])
            while let row = try rows.next() {
                names[UserID(try row.decode(String.self, atIndex: 0))] = ProfileRules.shownName(
                    try row.decode(atIndex: 1), suspended: try row.decode(atIndex: 2), email: try row.decode(atIndex: 3))
            }
            return names
        }
    }
}
