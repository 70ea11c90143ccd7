import Foundation
import GRDB
import Kernel
import Profile
import SQLStore

/// The profiles of a SQLite database (`ProfileStore`).
public struct SQLProfileStore: ProfileStore {
    private let database: SQLDatabase

    /// The store of an open database.
    public init(database: SQLDatabase) { self.database = database }

    public func profile(_ id: UserID) async throws -> Profile? {
        try await database.read { db in try Self.profile(id, db).map(Self.shown) }
    }

    public func profile(matching keys: (id: UserID, email: String)) async throws -> Profile? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.columns) FROM profiles WHERE id = ? OR email = ? ORDER BY id = ? DESC LIMIT 1",
                arguments: [keys.id.rawValue, keys.email, keys.id.rawValue]
            ).map { try Self.shown(Self.profile($0)) }
        }
    }

    public func profiles(startingWith prefix: String, limit: Int) async throws -> [Profile] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.columns) FROM profiles
                    WHERE substr(name_key, 1, length(:prefix)) = :prefix OR email = :prefix
                    ORDER BY name_key, id LIMIT :limit
                    """, arguments: ["prefix": prefix, "limit": limit]
            ).map { try Self.shown(Self.profile($0)) }
        }
    }

    public func update(_ id: UserID, _ edit: @escaping @Sendable (Profile) throws -> ProfileEdit) async throws -> Profile? {
        try await database.write { db in
            guard let old = try Self.profile(id, db)?.profile else { return nil }
            let edited = try edit(old)
            let profile = edited.profile
            try db.execute(
                sql: "UPDATE profiles SET display_name = ?, name_key = ?, status = ? WHERE id = ?",
                arguments: [profile.displayName, profile.displayName.lowercased(), profile.status, profile.id.rawValue])
            if let event = edited.event { try SQLChangeLog.record(event.change, audience: event.audience, db) }
            return profile
        }
    }

    public func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
        try await SQLProfileRegistry(database: database).displayNames(of: ids)
    }

    private static func profile(_ id: UserID, _ db: Database) throws -> (profile: Profile, suspended: Bool)? {
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM profiles WHERE id = ?", arguments: [id.rawValue]).map(profile)
    }

    private static let columns = "id, email, display_name, status, suspended"

    /// A row's profile as stored, and whether its account is suspended.
    private static func profile(_ row: Row) throws -> (profile: Profile, suspended: Bool) {
        let profile = Profile(
            id: UserID(try row.decode(String.self, atIndex: 0)), email: try row.decode(String.self, atIndex: 1),
            displayName: try row.decode(atIndex: 2), status: try row.decode(atIndex: 3))
        return (profile, try row.decode(atIndex: 4))
    }

    /// A profile as others see it.
    private static func shown(_ stored: (profile: Profile, suspended: Bool)) -> Profile {
        ProfileRules.shown(stored.profile, suspended: stored.suspended)
    }
}
